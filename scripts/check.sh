#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make check: for every test kernel build the module (W=1 and sparse; any
# warning fails; a kernel whose make cannot run sparse counts a skip), boot
# the kernel in QEMU with the selftests, and count results.  One line per
# kernel sums its build and boots, with the time taken.  Before the last
# line, what failed, with the lines that explain it (build/failures.txt).
# The last line is
# "N passed, N failed[, N skipped]"; the status is non-zero on any failure,
# on a guest that does not finish, or on a bad kernel log line outside the
# regions tests mark as expected.  Guest logs stay in
# build/<kernel>/<boot>.log.
#
# DXGPMO_KERNELS="6.1.0-28-amd64 ..." overrides the kernels tested (the
# default: the newest 6.1 and 6.12 installed, and the newest trixie-backports
# kernel make deps cached);
# The arm64 kernels make deps cached (the same three series) are tested
# too, cross-built, under QEMU's virt machine with an SMMUv3: no screen
# (the scan-out tests skip), no DKMS build, no IOMMU matrix
# (DXGPMO_ARCHES=amd64 or DXGPMO_ARCH=arm64 tests one architecture only);
# DXGPMO_FUZZ_OPS / _SEED set the fuzzer's operation count and seed,
# DXGPMO_FUZZ_SECONDS its safety net, DXGPMO_FUZZ_DURATION a run of that
# many seconds instead of a count (make fuzz SECONDS=n or OPS=n).
#
# The IOMMU matrix (DXGPMO_IOMMU_MODES, _KERNEL, _FUZZ_OPS, _PARALLEL):
# every kernel boots on emulated VT-d in strict mode, one kernel also on
# each other IOMMU platform (scripts/lib/iommu-matrix.sh says which).
#
# The Debian packages (debian/, scripts/deb-check.sh) are built, linted,
# installed, used and purged in the trixie and bookworm build roots on
# the host, next to the boots; then the newest amd64 kernel boots once
# more with the module as the package's DKMS built it in the trixie root
# and the packaged dxgpmoctl, and loads the samples/ built against the
# installed packages there ("KVER[vtd-strict]/deb-smoke",
# scripts/guest/deb-smoke-job.sh).  Neither runs on make check-debug's
# kernel or without an amd64 kernel.
#
# This file is the order of a run; sourced from scripts/lib/, one concern
# a file: results.sh (reading and counting the logs, the digest of what
# failed, the last line), initramfs.sh (what each boot carries),
# iommu-matrix.sh, host-checks.sh (lint and the checks without a VM),
# deb-lane.sh (the packages and their smoke boot) and run-lane.sh (make
# run's test, beside the other boots).
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
[ $# -eq 0 ] || usage_error "no arguments"

# shellcheck source=vm-lib.sh
. "$(dirname "$0")/vm-lib.sh"
# shellcheck source=lib/results.sh
. "$vm_scripts/lib/results.sh"
# shellcheck source=lib/initramfs.sh
. "$vm_scripts/lib/initramfs.sh"
# shellcheck source=lib/iommu-matrix.sh
. "$vm_scripts/lib/iommu-matrix.sh"
# shellcheck source=lib/host-checks.sh
. "$vm_scripts/lib/host-checks.sh"
# shellcheck source=lib/deb-lane.sh
. "$vm_scripts/lib/deb-lane.sh"
# shellcheck source=lib/run-lane.sh
. "$vm_scripts/lib/run-lane.sh"
vm_prepare

kernels=${DXGPMO_KERNELS:-$(default_test_kernels)}
[ -n "$kernels" ] || { echo "check: no test kernels installed" >&2; exit 1; }
# The architectures of the kernels tested.
kernel_arches=$(for kver in $kernels; do kernel_arch "$kver"; done |
	sort -u)
amd64_kernels=$(for kver in $kernels; do
	[ "$(kernel_arch "$kver")" != amd64 ] || echo "$kver"; done)
arm64_kernels=$(for kver in $kernels; do
	[ "$(kernel_arch "$kver")" != arm64 ] || echo "$kver"; done)
# user_dir KVER: where the guest's programs for KVER are: the tree's own,
# or arm64 ones built in a copy (build_userspace).
user_dir() {
	if [ "$(kernel_arch "$1")" = amd64 ]; then
		echo "$top"
	else
		echo "$build/$(kernel_arch "$1")-user"
	fi
}

# The fuzzer runs a fixed number of operations, DXGPMO_FUZZ_OPS (200,000:
# 22-66 s under TCG on the 2-core machine, by its load).  DXGPMO_FUZZ_SECONDS
# is only its safety net, which stops the run and fails it loudly with the
# count reached: 300 s per 200,000 operations; per 200,000, 1200 s on a debug
# kernel (check-debug), where KASAN and lockdep made it 885 ops/s (~230 s).
# A duration run (DXGPMO_FUZZ_DURATION) gets 120 s past its duration.  The
# VM timeout grows to outlive the net unless it was set.
fuzz_ops=${DXGPMO_FUZZ_OPS:-200000}
if [ -n "${DXGPMO_FUZZ_DURATION:-}" ]; then
	fuzz_seconds=$((DXGPMO_FUZZ_DURATION + 120))
else
	fuzz_net=300
	[ -z "${DXGPMO_KERNEL_BUILD:-}" ] || fuzz_net=1200
	fuzz_seconds=$((((fuzz_ops + 199999) / 200000) * fuzz_net))
	[ "$fuzz_seconds" -ge "$fuzz_net" ] || fuzz_seconds=$fuzz_net
fi
fuzz_seconds=${DXGPMO_FUZZ_SECONDS:-$fuzz_seconds}
# The boot also runs an unprivileged quarter run with a quarter net + 60 s.
fuzz_boot=$((fuzz_seconds + fuzz_seconds / 4 + 60))
if [ -z "${DXGPMO_VM_TIMEOUT:-}" ] && [ $((fuzz_boot + 300)) -gt 900 ]; then
	export DXGPMO_VM_TIMEOUT=$((fuzz_boot + 300))
fi
if [ $((fuzz_boot + 180)) -gt "${DXGPMO_VM_TIMEOUT:-900}" ]; then
	echo "check: the fuzzer's safety net ($fuzz_seconds s) does not fit in DXGPMO_VM_TIMEOUT=$DXGPMO_VM_TIMEOUT" >&2
	exit 1
fi

iommu_matrix_config

mkdir -p "$build"
start=$(date +%s)
# phase WHAT: when WHAT was done, in seconds from the start, in
# build/timing.log: where the time of a run goes.
phase() {
	echo "$(($(date +%s) - start)) $*" >> "$build/timing.log"
}
: > "$build/timing.log"

# The kselftest harness's headers, checkpatch.pl and kernel-doc from make
# deps' copy (else the Makefile extracts them from linux-source again).
# A build directory holding another copy's (an older tree, another
# linux-source) gets this one's, newer than every selftest built with the
# other harness.
source_files=$(linux_source_files)
if [ "$(cat "$build/linux-source-files" 2>/dev/null)" != "$source_files" ]; then
	for dir in $LINUX_SOURCE_TOOLS; do
		rm -rf "${build:?}/$dir"
		cp -R "$source_files/$dir" "$build/"
	done
	echo "$source_files" > "$build/linux-source-files"
fi

doc_scripts

# DXGPMO_TESTS_SPLIT=2 runs the tests boot as two boots side by side, the
# suite's halves (scripts/guest/check-job.sh), "tests" and "tests2": the
# default of make check-debug, whose one kernel would otherwise leave a
# core idle while its longest boot runs.  1 (make check's default): one
# tests boot.
tests_split=${DXGPMO_TESTS_SPLIT:-1}
[ -z "${DXGPMO_KERNEL_BUILD:-}" ] || tests_split=${DXGPMO_TESTS_SPLIT:-2}
case $tests_split in
1) tests_boots=tests ;;
2) tests_boots="tests tests2" ;;
*)
	echo "check: DXGPMO_TESTS_SPLIT=$tests_split: 1 or 2" >&2
	exit 1
	;;
esac

# The module of each kernel, then the initramfs of each of its boots, are
# made one after another in the background: the first kernel's while the
# tools and selftests build (nothing else runs yet, and the first boot
# waits for both), the others at a lower priority than their guests,
# during the boots of the kernels before.  Each boot waits for its own.
# The two architectures' kernels alternate, so that the first arm64 boot
# (the arm64 lane, below) can start early; the arm64 programs are built
# just before its first initramfs.  The default build, as make install
# and DKMS build it, is made for the first kernel of each architecture
# (default_kernels), after all the test builds, for its bug boot (the bug
# lane, below): no tests boot waits for it.  Its code is the test build's
# less the test code and a few stubs, which W=1 compiles there; the other
# kernels' bug boots load their test build (initramfs_bug).
for kver in $kernels; do
	rm -rf "${build:?}/$kver"
	mkdir -p "$build/$kver/default"
done
build_order=$(paste -d '\n' /dev/fd/3 /dev/fd/4 3<<A 4<<B | grep .
$amd64_kernels
A
$arm64_kernels
B
)
default_kernels="$(echo "$amd64_kernels" | head -n 1) $(echo "$arm64_kernels" | head -n 1)"
# is_default_kernel KVER: KVER has a default build.
is_default_kernel() {
	case " $default_kernels " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}
rm -f "$build/tools.status" "$build/arm64-user.status"
(
	for kver in $build_order; do
		if vm_build "$top" "$kver" "$build/$kver"; then
			phase "$kver: module built"
			vm_wait "$build/tools.status" || exit 0
			if [ "$(kernel_arch "$kver")" = arm64 ] &&
			   [ ! -e "$build/arm64-user.status" ]; then
				if build_userspace "$top" "$build/arm64-user" \
					> "$build/arm64-user.log" 2>&1; then
					echo ok > "$build/arm64-user.status"
				else
					echo fail > "$build/arm64-user.status"
				fi
				phase "arm64 tools and selftests built"
			fi
			initramfs_made tests "$kver"
			[ "$tests_split" = 1 ] || initramfs_made tests2 "$kver"
			initramfs_made fuzz "$kver"
			is_default_kernel "$kver" || initramfs_made bug "$kver"
			if [ "$kver" = "$iommu_kernel" ]; then
				for mode in $iommu_boots; do
					initramfs_iommu "$kver" "$mode" \
						> "$build/$kver/iommu-$mode.initramfs.log" \
						2>&1 || true
					phase "$kver: iommu-$mode initramfs made"
				done
			fi
		fi
		renice -n 10 -p "$(exec sh -c 'echo $PPID')" > /dev/null 2>&1 ||
			true
	done
	for kver in $default_kernels; do
		[ "$(cat "$build/$kver/build.status" 2>/dev/null)" = ok ] ||
			continue
		vm_build "$top" "$kver" "$build/$kver/default" default || true
		phase "$kver: default module built"
		initramfs_made bug "$kver"
	done
) &

# The host's tools and selftests (the host checks use them too).
if make -s -j"$(nproc)" tools selftests; then
	echo ok > "$build/tools.status"
else
	echo fail > "$build/tools.status"
	exit 1
fi
phase "tools and selftests built"

results_init

# make coverage measures the boots: the host's checks are make check's,
# skipped there and said so (DXGPMO_NO_HOST_CHECKS, its own).
[ -n "${DXGPMO_NO_HOST_CHECKS:-}" ] || host_checks_start
deb_check_start

# make run's own test: two short boots of the first amd64 kernel, beside
# the other boots once the tools are built (make run would build them
# too); counted with the host's lines at the end.  At the end of the run,
# alone, it was half a minute of make check.
(
	vm_wait "$build/tools.status" || exit 0
	phase "run lane begins"
	run_lane
	phase "run lane done"
) > /dev/null 2>&1 &
run_lane_pid=$!

# boot_run KVER NAME [screen]: one VM boot of the initramfs made for it,
# on the IOMMU platform DXGPMO_VM_IOMMU (vm-boot.sh) when set; QEMU's
# status in NAME.status, or "none" when the initramfs could not be made.
boot_run() {
	kver=$1 name=$2 screen=${3:-}
	out=$build/$kver
	log=$out/$name.log

	rm -f "$out/$name.status"
	if ! vm_wait "$out/$name.initramfs"; then
		echo none > "$out/$name.status"
		return
	fi
	phase "$kver: $name boot begins"
	br_start=$(date +%s)
	vm_boot "$kver" "$out" "$name" "$screen" && qemu_status=0 ||
		qemu_status=$?
	echo "$(($(date +%s) - br_start)) ${DXGPMO_VM_TIMEOUT:-900}" \
		> "$out/$name.seconds"
	phase "$kver: $name boot done"
	# QEMU that never ran left no log: its boot still counts, as failed.
	[ -f "$log" ] || : > "$log"
	echo "$qemu_status" > "$out/$name.status"
}

# kernel_boots KVER: its tests and fuzz boots (boot_run) on its default
# platform; its bug boot is the bug lane's (below).
# The tests boot of an x86 kernel has a screen (arm64: none, vm-boot.sh).
# With the suite split (DXGPMO_TESTS_SPLIT=2), its first half boots beside
# the second, which the bug and fuzz boots follow.
kernel_boots() {
	kb_screen=
	[ "$(kernel_arch "$1")" = arm64 ] || kb_screen=screen
	if [ "$tests_split" = 2 ]; then
		boot_run "$1" tests "$kb_screen" > "$build/$1/tests.run.log" 2>&1 &
		kb_first=$!
		boot_run "$1" tests2
	else
		boot_run "$1" tests "$kb_screen"
	fi
	boot_run "$1" fuzz
	if [ "$tests_split" = 2 ]; then
		wait "$kb_first" || true
		cat "$build/$1/tests.run.log"
	fi
}

# kernel_boot_bug KVER: its bug boot.  arm64's bounces every DMA mapping
# (swiotlb=force): the module cleans caches through the DMA API there and
# must refuse what it cannot clean (dxgpmo_bug_test).
kernel_boot_bug() {
	if [ "$(kernel_arch "$1")" = amd64 ]; then
		boot_run "$1" bug
	else
		DXGPMO_VM_CMDLINE=swiotlb=force
		export DXGPMO_VM_CMDLINE
		boot_run "$1" bug
		unset DXGPMO_VM_CMDLINE
	fi
}

# The bug lane: each kernel's bug boot, while the other lanes boot; those
# of the kernels with a default build last, as it is made after every
# test build (above).  Counted last.
(
	for kver in $build_order; do
		is_default_kernel "$kver" && continue
		vm_wait "$build/$kver/build.status" || continue
		kernel_boot_bug "$kver"
	done
	for kver in $default_kernels; do
		vm_wait "$build/$kver/build.status" || continue
		kernel_boot_bug "$kver"
	done
) > "$build/bug-lane.log" 2>&1 &
bug_lane=$!

# The arm64 lane: the arm64 kernels' boots, one after another, while the
# x86 kernels boot (a TCG guest keeps about one of the two cores busy;
# the x86 boots alone left 0.8 of them idle).  Counted after the x86 ones.
arm64_lane=
if [ -n "$arm64_kernels" ]; then
	(
		for kver in $arm64_kernels; do
			vm_wait "$build/$kver/build.status" || continue
			date +%s > "$build/$kver/boots.start"
			kernel_boots "$kver"
			date +%s > "$build/$kver/boots.end"
		done
	) > "$build/arm64-lane.log" 2>&1 &
	arm64_lane=$!
fi

for kver in $amd64_kernels; do
	k_passed=$passed k_failed=$failed k_skipped=$skipped k_start=$(date +%s)
	k_seconds=
	if vm_wait "$build/$kver/build.status"; then
		kernel_boots "$kver"
	fi
	if kernel_results "$kver" && [ "$kver" = "$iommu_kernel" ] &&
	   [ -n "$iommu_boots" ]; then
		iommu_matrix_start "$kver"
	else
		kernel_summary
	fi
done

deb_smoke

wait "$run_lane_pid" || true

[ -z "$iommu_matrix_pid" ] || iommu_matrix_count "$iommu_kernel"

if [ -n "$arm64_lane" ]; then
	wait "$arm64_lane" || true
	cat "$build/arm64-lane.log"
	if [ "$(cat "$build/arm64-user.status" 2>/dev/null)" = fail ]; then
		cat "$build/arm64-user.log"
		count_failure "arm64: tools and selftests did not build"
	fi
	for kver in $arm64_kernels; do
		k_passed=$passed k_failed=$failed k_skipped=$skipped
		k_seconds=$(($(cat "$build/$kver/boots.end" 2>/dev/null || echo 0) -
			$(cat "$build/$kver/boots.start" 2>/dev/null || echo 0)))
		kernel_results "$kver" || true
		kernel_summary
	done
fi

wait "$bug_lane" || true
cat "$build/bug-lane.log"
for kver in $build_order; do
	bug_results "$kver"
done

if [ -n "${DXGPMO_NO_HOST_CHECKS:-}" ]; then
	echo "host: SKIP make lint and the host checks (DXGPMO_NO_HOST_CHECKS)"
	skipped=$((skipped + 1))
else
	host_checks_count
fi
deb_check_count
count_lines run
results_report
