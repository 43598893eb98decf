#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's semantic patches (scripts/coccinelle of linux-source, as
# make coccicheck MODE=report runs them) over the module and the samples:
# prints each report and fails when there is one.  make coccicheck needs a
# kernel source tree to run in; Debian's headers have neither the
# coccicheck script nor the semantic patches, so this runs spatch the way
# that script does, one semantic patch at a time over every file.
#
# usage: coccicheck.sh COCCI_DIR DIR...
#   COCCI_DIR  the kernel's scripts/coccinelle (make coccicheck extracts
#              it from linux-source into build/coccinelle)
#   DIR        a directory whose .c files are checked (with the headers
#              they include)
#
# Semantic patches with OCaml rules need OCaml, which Debian's coccinelle
# does not pull in (about 400 MB): where it is missing they are skipped,
# named on one line.  Of the kernel's, that is badzero.cocci (a pointer
# compared with 0, which sparse reports too: "Using plain integer as NULL
# pointer") and check_bq27xxx_data.cocci (one driver's tables).
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
[ $# -ge 2 ] || usage_error "missing arguments"
cocci_dir=$1
shift
[ -d "$cocci_dir" ] || usage_error "$cocci_dir: no such directory"
top=$(cd "$(dirname "$0")/.." && pwd)

# spatch compiles OCaml rules with ocamlopt
ocaml=
! command -v ocamlopt > /dev/null 2>&1 || ocaml=1
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
files=$(find "$@" -name '*.c' | sort)
skipped=
todo=
for cocci in $(find "$cocci_dir" -name '*.cocci' | sort); do
	name=${cocci#"$cocci_dir"/}
	if [ -z "$ocaml" ] && grep -q '^@ *script *: *ocaml' "$cocci"; then
		skipped="$skipped $name"
		continue
	fi
	todo="$todo $name"
done
# As many semantic patches at a time as there are CPUs (make check runs
# this at the end of its boots, where one spatch after another left a
# core idle for minutes), each one's reports in a file of its own, shown
# in the patches' order.  The semantic patch's own parse warnings
# ("should X be a metavariable?") are about it, not about the code.
export cocci_dir reports files top
# SC2016: expanded by the inner shell; SC2086: one word a name
# shellcheck disable=SC2016,SC2086
printf '%s\n' $todo | xargs -P "$(nproc)" -n 1 sh -c '
	# shellcheck disable=SC2086 # one word a file
	spatch -D report --no-show-diff --very-quiet \
		-I "$top/include" -I "$top/uapi" --cocci-file "$cocci_dir/$1" \
		$files 2>&1 |
		grep -v "^warning: line [0-9]*: should .* be a metavariable?\$" |
		sed "s|^|$1: |" > "$reports/$(echo "$1" | tr / _)" || true' sh
[ -z "$skipped" ] || echo "coccicheck: skipped, no OCaml:$skipped"
if cat "$reports"/* 2>/dev/null | grep -q .; then
	for name in $todo; do
		cat "$reports/$(echo "$name" | tr / _)"
	done
	exit 1
fi
