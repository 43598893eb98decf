#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# usage: check-debug.sh [debug|kcsan]
#
# make check-debug: the whole suite and the fuzzer on a debug kernel (KASAN,
# lockdep, kmemleak, DMA-API debugging, DEBUG_VM, fault injection, KUnit)
# built once from Debian's linux-source-6.12 by scripts/debug-kernel.sh and
# cached outside the repository.  The module's KUnit suites run there only
# (build_module builds them for a kernel with KUnit), counted in a line of
# their own, KVER[vtd-strict]/kunit.  Same summary line and exit status as
# make check.
#
# make check-kcsan (kcsan): the same on the KCSAN kernel of the same
# script.  A data race KCSAN reports with a frame in one of the tree's
# modules fails its boot as any kernel report does; the kernel's own
# races (scripts/lib/results.sh, kcsan_ours_only) are listed before the
# summary, counted in no line.  One line more, counted: the module is
# built with KCSAN's instrumentation (else no race of ours could show).
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
[ $# -le 1 ] || usage_error "one flavour at most"
flavour=${1:-debug}
case $flavour in
debug|kcsan) ;;
*) usage_error "unknown flavour: $flavour" ;;
esac

top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/deps.sh"
tree=$("$top/scripts/debug-kernel.sh" "$flavour" | tail -n 1)
kver=$(make -s -C "$tree" kernelrelease)
export DXGPMO_KERNEL_IMAGE="$tree/arch/x86/boot/bzImage"
export DXGPMO_KERNEL_BUILD="$tree"
export DXGPMO_KERNELS="$kver"
# KASAN and lockdep, or KCSAN's watchpoints, make everything slower: more
# time for each boot.
export DXGPMO_VM_TIMEOUT="${DXGPMO_VM_TIMEOUT:-2400}"
[ "$flavour" = kcsan ] || exec "$top/scripts/check.sh"

status=0
build=${BUILD:-$top/build}
mkdir -p "$build"
rm -f "$build/kcsan-check.status"
{ "$top/scripts/check.sh" || echo "$?" > "$build/kcsan-check.status"; } |
	tee "$build/kcsan-check.log"
[ ! -f "$build/kcsan-check.status" ] || status=$(cat "$build/kcsan-check.status")
summary=$(tail -n 1 "$build/kcsan-check.log")
# shellcheck source=lib/results.sh
. "$top/scripts/lib/results.sh"
foreign=$(for log in "$build/$kver"/*.log; do
		[ ! -f "$log" ] || unexpected_log "$log"
	done | sed -n 's/^kcsan: not ours: //p' | tr -d '\r' |
	sort | uniq -c | sort -rn)
if [ -n "$foreign" ]; then
	echo "kcsan: the kernel's own data races, not ours (count, pair):"
	echo "$foreign"
fi
passed=$(echo "$summary" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
failed=$(echo "$summary" | sed -n 's/^.* \([0-9]*\) failed.*/\1/p')
skipped=$(echo "$summary" | sed -n 's/^.* \([0-9]*\) skipped.*/\1/p')
# No summary: check.sh died, and says why above.
if [ -z "$passed" ] || [ -z "$failed" ]; then
	passed=0 failed=1 status=1
fi
for ko in dxgpmo dxgpmo_sample_edu dxgkrnl_sample_edu; do
	found=$(find "$build/$kver/src" -name "$ko.ko" | head -n 1)
	if [ -n "$found" ] && nm -u "$found" | grep -q ' __tsan_'; then
		echo "kcsan: PASS ${ko}_instrumented"
		passed=$((passed + 1))
	else
		echo "kcsan: FAIL ${ko}_instrumented: $ko.ko calls no __tsan_ hook"
		echo "kcsan: FAIL ${ko}_instrumented" >> "$build/failures.txt"
		failed=$((failed + 1))
		status=1
	fi
done
echo "$passed passed, $failed failed${skipped:+, $skipped skipped}"
exit "$status"
