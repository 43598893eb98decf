#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# usage: coverage.sh
#
# make coverage: which lines of the module, the samples, libdxgk and
# dxgpmoctl the tests run.  make check-debug's boots (the whole suite,
# KUnit, the fuzzer) with all of them built with gcov's counters
# (DXGPMO_GCOV=y; the debug kernel has CONFIG_GCOV_KERNEL,
# scripts/debug-kernel.sh), and libdxgk's unit test on the host.  The
# host's other checks (make lint, host-check.sh, libdxgk-check.sh) are
# make check's and do not run.  Each boot's counters come back through its
# serial log (scripts/guest/init), are read against the build's notes
# files by lcov, and are summed over the boots.  An HTML report in
# build/coverage/html; last, one line each: lines, functions and
# branches.  The module's KUnit suites are test code and are not counted.
# The exit status is check-debug's: the figures are printed either way.
# Programs built before without counters are rebuilt (the Makefile's
# GCOV_STAMP), and rebuilt again by the next make without DXGPMO_GCOV.
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
[ $# -eq 0 ] || usage_error "no arguments"

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
out=$build/coverage
if ! command -v lcov > /dev/null; then
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends lcov >&2
fi

status=0
DXGPMO_GCOV=y DXGPMO_NO_HOST_CHECKS=1 "$top/scripts/check-debug.sh" ||
	status=$?
tree=$("$top/scripts/debug-kernel.sh" | tail -n 1)
kver=$(make -s -C "$tree" kernelrelease)

rm -rf "$out"
mkdir -p "$out"
lcov_flags="-q --rc lcov_branch_coverage=1"
tracefiles=

# capture NAME DIR [--initial]: DIR's counters (with --initial, a zero for
# every line a notes file knows: files no test entered are counted too)
# into NAME.info, each build's copy of the tree named as the tree.
capture() {
	# shellcheck disable=SC2086 # one word a flag
	if ! lcov $lcov_flags --capture ${3:-} --directory "$2" \
		--output-file "$out/$1.raw" 2> "$out/$1.lcov.log"; then
		cat "$out/$1.lcov.log" >&2
		echo "coverage: $1: lcov could not read its counters" >&2
		status=1
		return 0
	fi
	sed -E "s|^SF:.*/src/(module\|samples\|include\|uapi)/|SF:$top/\\1/|" \
		"$out/$1.raw" > "$out/$1.info"
	tracefiles="$tracefiles $out/$1.info"
}

capture baseline-kernel "$build/$kver" --initial
capture baseline-user "$top/userspace-tools" --initial

# libdxgk's unit test, on its fake device (as libdxgk-check.sh runs it).
cd "$top"
find userspace-tools selftests -name '*.gcda' -delete
if cc -O2 -Wall --coverage -Iuserspace-tools -Iuapi -pthread \
	-o "$out/unit" selftests/libdxgk_unit_test.c userspace-tools/libdxgk.a &&
	timeout 120 "$out/unit" > "$out/unit.log" 2>&1; then
	capture host userspace-tools
else
	cat "$out/unit.log" >&2
	echo "coverage: libdxgk's unit test failed" >&2
	status=1
fi

booted=
for log in "$build/$kver"/*.log; do
	boot=${log##*/}
	boot=${boot%.log}
	# Only base64 lines: anything else on the console is not the stream.
	tr -d '\r' < "$log" |
		sed -n '/^dxgpmo-gcov: begin$/,/^dxgpmo-gcov: end$/p' |
		grep -E '^[A-Za-z0-9+/=]+$' > "$out/$boot.b64" || true
	[ -s "$out/$boot.b64" ] || continue
	mkdir -p "$out/$boot"
	if ! base64 -d < "$out/$boot.b64" | tar -xzf - -C "$out/$boot"; then
		echo "coverage: $boot: its counters did not come back whole" >&2
		status=1
		continue
	fi
	# Each counter file beside the notes file its build wrote: the
	# module's at their build's path, the programs' by name (their
	# names are unique: each program's objects carry its name).
	find "$out/$boot/gcov-kernel" -name '*.gcda' | while read -r gcda; do
		built=/${gcda#"$out/$boot/gcov-kernel/"}
		cp "${built%.gcda}.gcno" "${gcda%.gcda}.gcno" ||
			echo "coverage: $boot: no notes file for $built" >&2
	done
	find "$out/$boot/gcov-user" -name '*.gcda' | while read -r gcda; do
		name=${gcda##*/}
		notes=$(find "$top/userspace-tools" "$top/selftests" \
			-name "${name%.gcda}.gcno" | head -n 1)
		if [ -n "$notes" ]; then
			cp "$notes" "${gcda%.gcda}.gcno"
		else
			echo "coverage: $boot: no notes file for $name" >&2
		fi
	done
	capture "$boot" "$out/$boot"
	booted="$booted $boot"
done
if [ -z "$booted" ]; then
	echo "coverage: no boot brought counters back" >&2
	exit 1
fi
echo "coverage: counters of$booted"
set --
for info in $tracefiles; do
	set -- "$@" -a "$info"
done
# shellcheck disable=SC2086
lcov $lcov_flags "$@" --output-file "$out/all.info"
# shellcheck disable=SC2086
lcov $lcov_flags --extract "$out/all.info" "$top/module/*" "$top/samples/*" \
	"$top/userspace-tools/*" --output-file "$out/ours.info"
# Not counted: the KUnit suites, test code, and trace.h, whose functions
# TRACE_EVENT() generates (perf's handlers and the probe stubs run only
# with perf or a probe attached).  The events themselves are tested
# (dxgpmo_trace_test).
# shellcheck disable=SC2086
lcov $lcov_flags --remove "$out/ours.info" "$top/module/kunit/*" \
	"$top/module/trace.h" --output-file "$out/coverage.info"
genhtml -q --branch-coverage --prefix "$top" -o "$out/html" \
	"$out/coverage.info" > "$out/genhtml.log" 2>&1 ||
	{ cat "$out/genhtml.log"; status=1; }
# dxgpmoctl: its files (the Makefile's DXGPMOCTL_SRCS) but the library's.
# shellcheck disable=SC2016 # make expands it
ctl=$(make -s --no-print-directory --eval \
	'coverage-dxgpmoctl-srcs: ; @echo $(DXGPMOCTL_SRCS)' \
	coverage-dxgpmoctl-srcs)
for part in module samples libdxgk dxgpmoctl; do
	case $part in
	libdxgk) patterns="$top/userspace-tools/libdxgk_*" ;;
	dxgpmoctl) patterns=$(echo "$ctl" | tr ' ' '\n' | sed "s|^|$top/|") ;;
	*) patterns="$top/$part/*" ;;
	esac
	# lcov's patterns, not the shell's
	set -f
	# shellcheck disable=SC2086
	lcov $lcov_flags --extract "$out/coverage.info" $patterns \
		--output-file "$out/$part.info"
	set +f
	lcov --rc lcov_branch_coverage=1 --summary "$out/$part.info" 2>&1 |
		awk -v dir="$part" '
		/lines\.*:/ { l = $2 " (" substr($3, 2) " of " $5 ")" }
		/functions\.*:/ { f = $2 }
		/branches\.*:/ { b = $2 }
		END { printf "coverage: %s lines %s, functions %s, branches %s\n",
			dir, l, f, b }'
done
echo "coverage: report in ${out#"$top/"}/html/index.html"
exit "$status"
