#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# clang's static analyzer, the one scan-build drives, over the user-space
# C files: every .c file once, with the include paths the Makefile gives
# it; prints each finding with the path that leads to it and fails when
# there is one.  scan-build itself analyzes a file at every compile, and
# the Makefile compiles the library into each of the twenty selftests:
# about six minutes where this takes under three.
#
# usage: analyze.sh KSELFTEST_DIR FILE...
#   KSELFTEST_DIR  where make put kselftest_harness.h
#   FILE           a .c file to analyze
#
# A finding is fixed in the code; where it cannot be, the code is left
# to say why (none is today).
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
[ $# -ge 2 ] || usage_error "missing arguments"
kselftest=$1
shift
[ -f "$kselftest/kselftest_harness.h" ] ||
	usage_error "$kselftest: no kselftest_harness.h"
command -v clang > /dev/null ||
	{ echo "analyze.sh: no clang: run 'make deps'" >&2; exit 1; }

ANALYZE_FLAGS="$(pkg-config --cflags libdrm json-c 2>/dev/null) -Iuapi \
-Iinclude -Iuserspace-tools -I$kselftest"
export ANALYZE_FLAGS
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# As many at a time as there are CPUs, each file's report in one piece:
# its findings with their notes, the path the analyzer took.
# shellcheck disable=SC2016 # expanded by the inner shell
printf '%s\n' "$@" | xargs -P "$(nproc)" -n 1 sh -c '
	# shellcheck disable=SC2086 # one word a flag
	if ! out=$(clang --analyze -Xclang -analyzer-output=text \
			$ANALYZE_FLAGS -o /dev/null "$1" 2>&1) || [ -n "$out" ]; then
		printf "%s\n%s: findings\n" "$out" "$1"
	fi' sh > "$log"
if grep -q . "$log"; then
	grep -v ': note: expanded from macro' "$log"
	echo "analyze.sh: clang's analyzer has findings (above)" >&2
	exit 1
fi
