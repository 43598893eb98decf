#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make check: for every test kernel build the module (warnings are errors),
# boot the kernel in QEMU with the selftests, and count results.  The last
# line is "N passed, N failed[, N skipped]"; the status is non-zero on any
# failure, on a guest that does not finish, or on a suspicious kernel log
# line.  Guest logs stay in build/<kernel>/guest.log.
#
# DXGPMO_KERNELS="6.1.0-28-amd64 ..." overrides the kernels tested.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
cd "$top"

"$top/scripts/deps.sh"
. "$top/scripts/kernels.sh"

kernels=${DXGPMO_KERNELS:-$(default_test_kernels)}
[ -n "$kernels" ] || { echo "check: no test kernels installed" >&2; exit 1; }

make -s tools selftests

passed=0 failed=0 skipped=0
if make -s lint > "$build/lint.log" 2>&1; then
	echo "lint: checkpatch --strict clean"
	passed=$((passed + 1))
else
	cat "$build/lint.log"
	echo "lint: checkpatch --strict found problems"
	failed=$((failed + 1))
fi

# Kernel log lines that mean something went wrong, wherever they come from.
BAD_LOG='(BUG:|WARNING:|Oops|DMAR:.*[Ff]ault|KASAN|general protection|Call Trace:)'

for kver in $kernels; do
	out=$build/$kver
	rm -rf "$out"
	mkdir -p "$out"
	log=$out/guest.log

	if ! build_module "$kver" "$out" > "$out/build.log" 2>&1; then
		cat "$out/build.log"
		echo "$kver: module build failed or warned"
		failed=$((failed + 1))
		continue
	fi
	"$top/scripts/mkinitramfs.sh" "$kver" "$out/initramfs.cpio.gz" \
		"$top/scripts/guest/check-job.sh" "$out/dxgpmo.ko" \
		"$top/selftests/dxgpmo_test"

	set +e
	"$top/scripts/vm-boot.sh" "$kver" "$out/initramfs.cpio.gz" "$log"
	qemu_status=$?
	set -e

	k_pass=0 k_fail=0 k_skip=0
	for totals in $(sed -n 's/.*# Totals: pass:\([0-9]*\) fail:\([0-9]*\) xfail:\([0-9]*\) xpass:\([0-9]*\) skip:\([0-9]*\) error:\([0-9]*\).*/\1:\2:\3:\4:\5:\6/p' "$log"); do
		IFS=: read -r p f xf xp s e <<TOT
$totals
TOT
		k_pass=$((k_pass + p + xf))
		k_fail=$((k_fail + f + xp + e))
		k_skip=$((k_skip + s))
	done
	k_pass=$((k_pass + $(grep -c '^dxgpmo-check: PASS' "$log" || true)))
	k_fail=$((k_fail + $(grep -c '^dxgpmo-check: FAIL' "$log" || true)))

	problems=
	[ "$qemu_status" -eq 0 ] || problems="$problems qemu-status-$qemu_status"
	grep -q '^dxgpmo-vm: job exit' "$log" || problems="$problems guest-did-not-finish"
	grep -q '# Totals:' "$log" || problems="$problems no-selftest-totals"
	if grep -Eq "$BAD_LOG" "$log"; then
		problems="$problems kernel-log"
		grep -En "$BAD_LOG" "$log" | head -20
	fi
	grep -E '^(not ok|dxgpmo-check: FAIL)' "$log" || true
	for p in $problems; do
		k_fail=$((k_fail + 1))
	done

	echo "$kver: $k_pass passed, $k_fail failed, $k_skip skipped${problems:+ (}${problems# }${problems:+)} [log: ${log#"$top"/}]"
	passed=$((passed + k_pass))
	failed=$((failed + k_fail))
	skipped=$((skipped + k_skip))
done

if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
