#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One header per source file of module/, declaring exactly what the file
# lets other files use: every prototype and extern variable of X.h is
# defined in X.c, and every function or variable X.c does not keep static
# is declared in X.h.  The exceptions, each a rule of its own:
#   arch.h       is defined by every arch_<arch>.c, arch_test.h by every
#                arch_<arch>_test.c (one of each is built, Kbuild);
#   internal.h   declares the commands (dxgpmo_cmd_*) only, which
#                the file of each object type defines;
#   compat.h     has no definitions in a .c (inline functions and macros);
#   client.c     exports the in-kernel API, which the project's public
#                header include/linux/dxgpmo.h declares, and has client.h
#                for the rest; dxgkrnl.c likewise its Windows-named
#                interface, include/linux/dxgkrnl.h, and dxgkrnl.h;
#   main.c       defines nothing non-static: nothing calls into it;
#   kunit/       each case a *_kunit.c defines is declared in kunit/kunit.h
#                and registered in kunit/suite.c's one table (a case
#                left out would build and never run), and nothing else.
# Universal-ctags lists prototypes and definitions, preprocessor branches
# included, so test-build-only declarations are checked too.
#
# usage: scripts/headers.sh [DIR]  (DIR: the module's sources, module/ by default)
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
[ $# -le 1 ] || usage_error "one directory at most"

dir=${1:-$(cd "$(dirname "$0")/.." && pwd)/module}

if ! ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
	echo "headers: needs universal-ctags (make deps)" >&2
	exit 1
fi

cd "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# name<TAB>file<TAB>kind (prototype, externvar; function, variable) of
# every declaration of the module's own names (not, say, the offsetof()
# of a static_assert(), which ctags takes for one) and every non-static
# definition.
public=../include/linux/dxgpmo.h
public_windows=../include/linux/dxgkrnl.h
for f in *.h *.c $public $public_windows; do
	case $f in *.mod.c) continue ;; esac
	echo "$f"
done > "$tmp/files"
# Its own command, so that set -e stops on a ctags that fails.
# shellcheck disable=SC2046
ctags -f "$tmp/raw" --excmd=number --language-force=C --kinds-C=fvpx \
	--fields=+Kf $(cat "$tmp/files")
awk -F '\t' '!/\tfile:/ && ($4 == "function" || $4 == "variable" ||
	$1 ~ /^_*dxg(pmo|krnl)_/) { print $1 "\t" $2 "\t" $4 }' "$tmp/raw" |
	sort -u > "$tmp/tags"
# A ctags that parses nothing would pass everything.
if ! grep -q '^dxgpmo_object_finalize	object.c	function$' "$tmp/tags"; then
	echo "headers: ctags found no definitions (object.c's)" >&2
	exit 1
fi

# The sources that must define what header $1 declares.
sources_of() {
	case $1 in
	arch.h) grep -v '_test\.c$' "$tmp/files" | grep '^arch_.*\.c$' ;;
	arch_test.h) grep '^arch_.*_test\.c$' "$tmp/files" ;;
	internal.h) grep '\.c$' "$tmp/files" ;;
	"$public") echo client.c ;;
	*) [ ! -e "${1%.h}.c" ] || echo "${1%.h}.c" ;;
	esac
}

# The header that must declare what source $1 defines.
header_of() {
	case $1 in
	arch_*_test.c) echo arch_test.h ;;
	arch_*.c) echo arch.h ;;
	*) echo "${1%.c}.h" ;;
	esac
}

fail=0
for h in *.h $public; do
	[ "$h" != compat.h ] || continue
	srcs=$(sources_of "$h")
	awk -F '\t' -v h="$h" '$2 == h && ($3 == "prototype" ||
		$3 == "externvar") { print $1 }' "$tmp/tags" |
	while read -r name; do
		if [ "$h" = internal.h ]; then
			case $name in
			dxgpmo_cmd_*) ;;
			*) echo "headers: internal.h declares $name, not a command"
			   echo fail >> "$tmp/failed"; continue ;;
			esac
		fi
		if [ -z "$srcs" ]; then
			echo "headers: $h declares $name, and there is no ${h%.h}.c"
			echo fail >> "$tmp/failed"
			continue
		fi
		found=
		for s in $srcs; do
			if awk -F '\t' -v n="$name" -v s="$s" '$1 == n && $2 == s &&
				($3 == "function" || $3 == "variable") { f = 1 }
				END { exit !f }' "$tmp/tags"; then
				found=$s
				[ "$h" = internal.h ] && break
			elif [ "$h" != internal.h ]; then
				echo "headers: $h declares $name, which $s does not define"
				echo fail >> "$tmp/failed"
			fi
		done
		if [ "$h" = internal.h ] && [ -z "$found" ]; then
			echo "headers: internal.h declares $name, which no file defines"
			echo fail >> "$tmp/failed"
		fi
	done
done

for c in *.c; do
	case $c in *.mod.c) continue ;; esac
	h=$(header_of "$c")
	awk -F '\t' -v c="$c" '$2 == c && ($3 == "function" ||
		$3 == "variable") { print $1 }' "$tmp/tags" |
	while read -r name; do
		case $c:$name in
		*:dxgpmo_cmd_*) want=internal.h ;;
		client.c:__dxgpmo_client_open | client.c:dxgpmo_client_*)
			want=$public ;;
		dxgkrnl.c:__dxgkrnl_start_device | dxgkrnl.c:dxgkrnl_stop_device |\
		dxgkrnl.c:dxgkrnl_adapter_id)
			want=$public_windows ;;
		*) want=$h ;;
		esac
		if ! awk -F '\t' -v n="$name" -v h="$want" '$1 == n && $2 == h &&
			($3 == "prototype" || $3 == "externvar") { f = 1 }
			END { exit !f }' "$tmp/tags"; then
			echo "headers: $c defines $name, not static, which $want does not declare"
			echo fail >> "$tmp/failed"
		fi
	done
done

# KUnit: the cases defined, declared and registered are the same set.
if [ -d kunit ]; then
	sed -n 's/^void \(dxgpmo_[a-z0-9_]*_test\)(struct kunit \*test)$/\1/p' \
		kunit/*_kunit.c | sort > "$tmp/k.defined"
	sed -n 's/^void \(dxgpmo_[a-z0-9_]*_test\)(struct kunit \*test);$/\1/p' \
		kunit/kunit.h | sort > "$tmp/k.declared"
	sed -n 's/^\tKUNIT_CASE(\(dxgpmo_[a-z0-9_]*\)),$/\1/p' \
		kunit/suite.c | sort > "$tmp/k.registered"
	if [ ! -s "$tmp/k.defined" ]; then
		echo "headers: no KUnit case found in kunit/*_kunit.c"
		echo fail >> "$tmp/failed"
	fi
	for list in declared registered; do
		if ! cmp -s "$tmp/k.defined" "$tmp/k.$list"; then
			echo "headers: KUnit cases defined (<) and $list (>) differ:"
			diff "$tmp/k.defined" "$tmp/k.$list" | grep '^[<>]'
			echo fail >> "$tmp/failed"
		fi
	done
fi

[ ! -e "$tmp/failed" ] || fail=1
exit $fail
