#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The layers of module/ as Documentation/driver-api/dxgpmo.rst, "Layers",
# lists them, checked against which file uses which.  A file uses another
# when it names a function or variable the other .c defines non-static
# (universal-ctags' definitions, searched for in the code with comments
# and strings left out) or includes the other's header.  X.h is one file
# with X.c for the layers; a header without a .c is a file of its own.
#
# Fails on:
#   R1  a .c (or a header without a .c) without a layer, or a file or glob
#       either table names that is not there;
#   R2  a use of a layer above that "Calls that go back up" does not list;
#   R3  a row of that table no use needs, or that gives no reason;
#   R4  a use of an adapter kind's file (one that defines a struct
#       dxgpmo_adapter_ops) but from main.c, or of client.c but from
#       main.c and dxgkrnl.c (the Windows-named interface over it);
#   R5  any use of main.c;
#   R6  an #include of a module header of which the file uses no name
#       (X.c's own X.h aside).
# The tables are read, not copied here, so that the document and the check
# cannot drift apart.
#
# usage: scripts/layering.sh [-q] [-t TABLE_RST] [DIR]
#   -q         the failures only, not every use ("a.c (4) -> b.c (6): names",
#              with each file's layer; "b.h" stands for an #include)
#   -t         the document with the two list-tables (default: the one above)
#   DIR        the module's sources (default: module/ of this tree)
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
# Byte order for sort and awk alike, whatever the caller's locale.
LC_ALL=C
export LC_ALL


top=$(cd "$(dirname "$0")/.." && pwd)
quiet=
table=
while getopts qt: opt; do
	case $opt in
	q) quiet=1 ;;
	t) table=$OPTARG ;;
	*) usage_error ;;
	esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || usage_error "one directory at most"
dir=${1:-$top/module}
# Messages name the table as it was given, read from its absolute path
# once the script is in DIR.
if [ -z "$table" ]; then
	table_name=Documentation/driver-api/dxgpmo.rst
	table=$top/$table_name
else
	table_name=$table
	case $table in /*) ;; *) table=$PWD/$table ;; esac
fi
if [ ! -f "$table" ]; then
	echo "layering: no $table_name" >&2
	exit 1
fi

if ! ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
	echo "layering: needs universal-ctags (make deps)" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cd "$dir"
find . -type f \( -name '*.c' -o -name '*.h' \) ! -name '*.mod.c' |
	sed 's|^\./||' | sort > "$tmp/files"

# Every tag as name<TAB>file<TAB>kind<TAB>static<TAB>typeref<TAB>roles:
# definitions, prototypes and extern declarations, local variables (an
# ops table may be one) and the #include lines (role "local" for "x.h").
# Headers are C here, not C++ as ctags would take them.
ctags -f "$tmp/raw" -L "$tmp/files" --language-force=C --excmd=number \
	--kinds-C=+hlpx --extras=+r --fields=+fKrt
awk -F '\t' '
	/^!_TAG_/ { next }
	{
		static = 0; typeref = ""; roles = "def"
		for (i = 5; i <= NF; i++) {
			if ($i == "file:")
				static = 1
			else if (substr($i, 1, 8) == "typeref:")
				typeref = substr($i, 9)
			else if (substr($i, 1, 6) == "roles:")
				roles = substr($i, 7)
		}
		print $1 "\t" $2 "\t" $4 "\t" static "\t" typeref "\t" roles
	}' "$tmp/raw" > "$tmp/tags"

# name<TAB>file of every function and file-scope variable a .c lets other
# files use.
awk -F '\t' '$2 ~ /\.c$/ && ($3 == "function" || $3 == "variable") &&
	!$4 && $6 == "def" { print $1 "\t" $2 }' "$tmp/tags" |
	sort -u > "$tmp/defs"
# A ctags that parses nothing would find no use, allowed or not.
if [ ! -s "$tmp/defs" ] && grep -q '\.c$' "$tmp/files"; then
	echo "layering: ctags found no definitions in $dir" >&2
	exit 1
fi

# name<TAB>header of what a header gives the files that include it.  A
# member is ".name", matched only by a "->name" or ".name" of the file: a
# file that reads a member through a pointer another header gave it needs
# the struct, and need not name it.
awk -F '\t' '$2 ~ /\.h$/ && $6 == "def" {
	if ($3 ~ /^(macro|enumerator|enum|struct|union|typedef|function|prototype|externvar|variable)$/)
		print $1 "\t" $2
	else if ($3 == "member")
		print "." $1 "\t" $2
}' "$tmp/tags" > "$tmp/provides.raw"
# The trace header's events are macros that make trace_EVENT() and
# trace_EVENT_enabled(), names ctags cannot see.
if grep -qx trace.h "$tmp/files"; then
	sed -n 's/^TRACE_EVENT(\([a-z0-9_]*\),.*/\1/p
		s/^DEFINE_EVENT([a-z0-9_]*, *\([a-z0-9_]*\),.*/\1/p' trace.h |
		awk '{ print "trace_" $1 "\ttrace.h"
		       print "trace_" $1 "_enabled\ttrace.h" }' \
		>> "$tmp/provides.raw"
fi
sort -u "$tmp/provides.raw" > "$tmp/provides"
# name<TAB>header of each prototype and extern variable of a header: the
# header declares it, which is no use of the .c that defines it.
awk -F '\t' '$2 ~ /\.h$/ && $6 == "def" &&
	($3 == "prototype" || $3 == "externvar") { print $1 "\t" $2 }' \
	"$tmp/tags" | sort -u > "$tmp/declares"

# file<TAB>header of every #include "x.h" of a header of DIR, its name
# taken from the including file's directory as the compiler does first
# (kunit/ files include "../x.h"); the others ("dxgpmo.h", from uapi/)
# are not the module's.
awk -F '\t' '
	FILENAME == ARGV[1] { have[$0] = 1; next }
	$3 != "header" || $6 !~ /(^|,)local(,|$)/ { next }
	{
		path = $1
		if ($2 ~ /\//)
			path = substr($2, 1, match($2, /[^\/]*$/) - 1) path
		n = split(path, part, "/")
		m = 0
		for (i = 1; i <= n; i++) {
			if (part[i] == "." || part[i] == "")
				continue
			if (part[i] == "..") {
				if (m == 0) { m = -1; break }
				m--
				continue
			}
			out[++m] = part[i]
		}
		if (m <= 0)
			next
		path = out[1]
		for (i = 2; i <= m; i++)
			path = path "/" out[i]
		if (path in have)
			print $2 "\t" path
	}' "$tmp/files" "$tmp/tags" | sort -u > "$tmp/includes"

# file<TAB>variable of every struct dxgpmo_adapter_ops a file defines (not
# a pointer to one), however the declaration is laid out: ctags reads the
# type whole.  It takes an attribute after the name (__maybe_unused) for
# the name, and the name for the end of the type.
awk -F '\t' '($3 == "variable" || $3 == "local") &&
	$5 ~ /(^|[ :])struct[ :]dxgpmo_adapter_ops( |\[|$)/ && $5 !~ /\*/ {
	name = $1
	if (match($5, /dxgpmo_adapter_ops [A-Za-z_][A-Za-z0-9_]*$/))
		name = substr($5, RSTART + 19)
	print $2 "\t" name
}' "$tmp/tags" | sort -u > "$tmp/kinds"

# file<TAB>identifier of every word of each file's code, comments and
# string and character literals left out; ".name" for a member after "->"
# or ".".
awk -v list="$tmp/files" -f "$top/scripts/lib/layering-words.awk" \
	> "$tmp/words"
# The events' bodies in trace.h are compiled in trace.c (CREATE_TRACE_POINTS):
# what they read is trace.c's use.
if grep -qx trace.c "$tmp/files"; then
	awk -F '\t' '$1 == "trace.h" { print "trace.c\t" $2 }' "$tmp/words" \
		> "$tmp/trace-words"
	cat "$tmp/trace-words" >> "$tmp/words"
fi

# file<TAB>what it uses<TAB>its name or "header": every use of another
# file's definition or header, as its .c when a header has one.  A name
# the file defines or, a header, declares is its own (arch_x86.c and
# arch_arm64.c both define the arch.h functions).
awk -F '\t' '
	FILENAME == ARGV[1] { have[$0] = 1; next }
	FILENAME == ARGV[2] { own[$2, $1] = 1; next }
	FILENAME == ARGV[3] { by[$1] = by[$1] " " $2; own[$2, $1] = 1; next }
	FILENAME == ARGV[4] {
		use($1, $2, "\"" $2 "\"")
		next
	}
	($1, $2) in own || !($2 in by) { next }
	{
		n = split(by[$2], to, " ")
		for (i = 1; i <= n; i++)
			use($1, to[i], $2)
	}
	function unit(f,    c) {
		c = f
		return sub(/\.h$/, ".c", c) && (c in have) ? c : f
	}
	function use(f, t, what) {
		if (unit(f) != unit(t))
			print f "\t" unit(t) "\t" what
	}' "$tmp/files" "$tmp/declares" "$tmp/defs" "$tmp/includes" \
	"$tmp/words" |
	sort -u > "$tmp/uses"

# The two tables, as layer<TAB>file or glob ($tmp/layer-of) and
# from<TAB>to<TAB>why ($tmp/upcall-rows); their faults in $tmp/fail.
# shellcheck source=lib/layering-table.sh
. "$top/scripts/lib/layering-table.sh"
read_layer_tables

# R1 to R5 over the uses, each use's names on one line.
awk -F '\t' -v table="$table_name" -v quiet="$quiet" \
'
	FILENAME == ARGV[1] { have[$0] = 1; files[++nfiles] = $0; next }
	FILENAME == ARGV[2] {
		pattern[++npatterns] = $2
		player[npatterns] = $1
		next
	}
	FILENAME == ARGV[3] {
		from[++nrows] = $1; to[nrows] = $2; why[nrows] = $3
		upcall[unit($1), unit($2)] = nrows
		next
	}
	FILENAME == ARGV[4] { kind[$1] = kind[$1] ", " $2; next }
	{
		if (!(($1, $2) in names))
			order[++n] = $1 "\t" $2
		names[$1, $2] = names[$1, $2] " " $3
	}

	function unit(f,    c) {
		c = f
		return sub(/\.h$/, ".c", c) && (c in have) ? c : f
	}
	# A glob of the table (kunit/*.c) as a regular expression.
	function regex(g,    r, c, i) {
		r = "^"
		for (i = 1; i <= length(g); i++) {
			c = substr(g, i, 1)
			if (c == "*")
				r = r "[^/]*"
			else if (c == "?")
				r = r "[^/]"
			else if (c ~ /[A-Za-z0-9_\/-]/)
				r = r c
			else
				r = r "[" c "]"
		}
		return r "$"
	}
	function fail(msg) { print "layering: " msg > "/dev/stderr" }
	function show(f, u) {
		return f " (" (unit(f) in layer ? layer[unit(f)] : "?") ") -> " \
			u " (" (u in layer ? layer[u] : "?") "):" names[f, u]
	}
	END {
		# R1: every file in one layer, every name of the tables a file.
		for (p = 1; p <= npatterns; p++) {
			re = regex(pattern[p])
			hits = 0
			for (i = 1; i <= nfiles; i++) {
				f = files[i]
				if (f !~ re)
					continue
				hits++
				u = unit(f)
				if (u in layer && layer[u] != player[p])
					fail(f " is in layer " layer[u] " and in layer " \
						player[p] " of " table)
				else
					layer[u] = player[p]
			}
			if (!hits)
				fail(table " names " pattern[p] ", which " \
					(pattern[p] ~ /[*?]/ ? "matches no file" : \
					"does not exist"))
		}
		for (i = 1; i <= nfiles; i++) {
			f = files[i]
			if (unit(f) == f && !(f in layer))
				fail(f " has no layer in " table)
		}
		for (r = 1; r <= nrows; r++)
			for (e = 1; e <= 2; e++) {
				f = e == 1 ? from[r] : to[r]
				if (!(f in have))
					fail(table " names " f ", which does not exist")
			}

		# R2, R4, R5: every use (in order, as sort left them), the
		# calls back up it matches marked.
		for (i = 1; i <= n; i++) {
			split(order[i], fu, "\t")
			f = fu[1]; u = fu[2]; uf = unit(f)
			if (!quiet)
				print show(f, u)
			if ((uf, u) in upcall)
				needed[upcall[uf, u]] = 1
			if (uf == "main.c")
				continue
			if (u == "main.c")
				fail("nothing may use main.c: " show(f, u))
			else if (u in kind)
				fail("only main.c may use an adapter kind (" u ": " \
					substr(kind[u], 3) "): " show(f, u))
			else if (u == "client.c" && uf != "dxgkrnl.c")
				fail("only main.c and dxgkrnl.c may use client.c, " \
					"the in-kernel API: " show(f, u))
			else if (uf in layer && u in layer &&
			    layer[u] + 0 < layer[uf] + 0 && !((uf, u) in upcall))
				fail("a use of a layer above that " table \
					" does not list as a call back up: " show(f, u))
		}

		# R3: each call back up still made, upward, and with a reason.
		for (r = 1; r <= nrows; r++) {
			a = unit(from[r]); b = unit(to[r])
			row = table " lists " from[r] " -> " to[r] \
				" as a call back up"
			if (why[r] ~ /^[ \t]*$/)
				fail(row " without a reason")
			if (!(a in have && b in have))
				continue
			if (!(r in needed))
				fail(row ", but " from[r] " uses nothing of " to[r])
			else if (a in layer && b in layer &&
			    layer[b] + 0 >= layer[a] + 0)
				fail(row ", but " to[r] " is not above (layers " \
					layer[a] " -> " layer[b] ")")
		}
	}' "$tmp/files" "$tmp/layer-of" "$tmp/upcall-rows" "$tmp/kinds" \
	"$tmp/uses" 2>> "$tmp/fail"

# R6: each #include gives the file at least one name it uses.  A member
# counts for a header only when no other header the file includes has a
# member of that name (obj, pages): which struct it is, ctags cannot say.
awk -F '\t' '
	FILENAME == ARGV[1] { gives[$2, $1] = 1; next }
	FILENAME == ARGV[2] {
		inc[$1] = inc[$1] " " $2
		pair[++n] = $0
		next
	}
	$1 in inc {
		k = split(inc[$1], h, " ")
		for (i = 1; i <= k; i++)
			if ((h[i], $2) in gives)
				hit[++hits] = h[i]
		if ($2 !~ /^\./ || hits == 1)
			for (i = 1; i <= hits; i++)
				used[$1, hit[i]] = 1
		hits = 0
	}
	END {
		for (p = 1; p <= n; p++) {
			split(pair[p], fh, "\t")
			own = fh[1]
			sub(/\.c$/, ".h", own)
			if (own != fh[2] && !((fh[1], fh[2]) in used))
				print "layering: " fh[1] " includes " fh[2] \
					" but uses none of its names"
		}
	}' "$tmp/provides" "$tmp/includes" "$tmp/words" >> "$tmp/fail"

if [ -s "$tmp/fail" ]; then
	cat "$tmp/fail" >&2
	exit 1
fi
