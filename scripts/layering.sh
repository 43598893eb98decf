#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Which file of module/ uses a function or variable defined in which other
# file, from universal-ctags' list of the non-static definitions and a
# search of every file's code (comments and strings left out) for their
# names.  One line an edge: "caller.c -> callee.c: names".
#
# Fails on a use of an adapter kind's file (a file that fills a struct
# dxgpmo_adapter_ops) or of main.c from any other file: the core reaches a
# kind through its ops only, and main.c, the module init/exit path, is the
# only file that calls a kind's init and exit and the one file nothing
# calls (Documentation/driver-api/dxgpmo.rst, "Layers").
#
# scripts/layering.sh [-q] [DIR]  (-q: print the forbidden edges only;
# DIR: the module's sources, module/ of this tree by default)
set -eu

quiet=
if [ "${1:-}" = -q ]; then
	quiet=1
	shift
fi
dir=${1:-$(cd "$(dirname "$0")/.." && pwd)/module}

if ! ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
	echo "layering: needs universal-ctags (make deps)" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cd "$dir"
: > "$tmp/sources"
for f in *.c; do
	case $f in *.mod.c) continue ;; esac
	echo "$f" >> "$tmp/sources"
done

# name<TAB>file of every function and file-scope variable other files may
# use (no "file:" field: not static).
# ctags its own command, so that set -e stops on one that fails.
# shellcheck disable=SC2046
ctags -f "$tmp/raw" --languages=C --kinds-C=fv --fields=+f \
	$(cat "$tmp/sources")
awk -F '\t' '!/\tfile:/ { print $1 "\t" $2 }' "$tmp/raw" |
	sort -u > "$tmp/defs"
# A ctags that parses nothing would find no edge, forbidden or not.
if ! grep -q '^dxgpmo_object_finalize	object.c$' "$tmp/defs"; then
	echo "layering: ctags found no definitions (object.c's)" >&2
	exit 1
fi
cut -f1 "$tmp/defs" > "$tmp/names"

# The kinds: the files that fill an ops table of their own.
# shellcheck disable=SC2046
kinds=$(grep -l '^static const struct dxgpmo_adapter_ops ' \
	$(cat "$tmp/sources") || true)

# Each file's code without comments and string literals, then every name
# it uses that another file defines.
while read -r f; do
	awk '
	{
		out = ""
		line = $0
		while (line != "") {
			if (incomment) {
				i = index(line, "*/")
				if (!i)
					break
				line = substr(line, i + 2)
				incomment = 0
				continue
			}
			if (match(line, /\/\*|\/\/|"/) == 0) {
				out = out line
				break
			}
			out = out substr(line, 1, RSTART - 1)
			tok = substr(line, RSTART, RLENGTH)
			line = substr(line, RSTART + RLENGTH)
			if (tok == "//")
				break
			if (tok == "/*") {
				incomment = 1
				continue
			}
			# A string: up to its closing quote, escapes skipped.
			if (match(line, /^([^"\\]|\\.)*"/))
				line = substr(line, RLENGTH + 1)
			else
				line = ""
		}
		print out
	}' "$f" > "$tmp/code"
	grep -owF -f "$tmp/names" "$tmp/code" | sort -u |
		while read -r name; do
			# A name the file defines too (arch_x86.c and
			# arch_arm64.c) is its own.
			awk -F '\t' -v n="$name" -v f="$f" '
				$1 == n { if ($2 == f) own = 1; else to[$2] = 1 }
				END { if (!own) for (t in to) print f "\t" t "\t" n }' \
				"$tmp/defs"
		done
done < "$tmp/sources" > "$tmp/uses"

# One line an edge, the names it stands for after it.
awk -F '\t' '
	{ key = $1 " -> " $2; names[key] = names[key] " " $3 }
	END { for (k in names) print k ":" names[k] }' "$tmp/uses" |
	sort > "$tmp/edges"

: > "$tmp/bad"
while read -r caller arrow callee rest; do
	callee=${callee%:}
	[ "$caller" = main.c ] && continue
	for target in main.c $kinds; do
		if [ "$callee" = "$target" ]; then
			echo "$caller $arrow $callee: $rest" >> "$tmp/bad"
		fi
	done
done < "$tmp/edges"

[ -n "$quiet" ] || cat "$tmp/edges"
if [ -s "$tmp/bad" ]; then
	echo "layering: only main.c may use main.c or an adapter kind's file" \
		"(kinds: $(echo "$kinds" | tr '\n' ' '| sed 's/ $//')):" >&2
	cat "$tmp/bad" >&2
	exit 1
fi
