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
# The IOMMU matrix: every kernel's three boots run on emulated VT-d in
# strict mode (vtd-strict); one kernel, DXGPMO_IOMMU_KERNEL (the newest
# 6.12 tested), also boots once on each other IOMMU platform of
# DXGPMO_IOMMU_MODES (default: all of vm-boot.sh's, "vtd-strict vtd-lazy
# vtd-scalable amd virtio pt", but none on make check-debug's kernel;
# vtd-strict adds no boot; "" adds none), running only the tests that
# reach the IOMMU and a short fuzzer run (scripts/guest/iommu-job.sh,
# DXGPMO_IOMMU_FUZZ_OPS operations, 20,000).
# Those boots run DXGPMO_IOMMU_PARALLEL at a time (3), in the background
# while the next kernels boot: they mostly wait for edu's 100 ms
# transfers.  Each boot's line names its platform:
# "KVER[vtd-lazy]/iommu: N passed, N failed, N skipped".
#
# The Debian packages (debian/, scripts/deb-check.sh) are built, linted,
# installed, used and purged in the trixie and bookworm build roots on
# the host, next to the boots; then the newest amd64 kernel boots once
# more with the module as the package's DKMS built it in the trixie root
# and the packaged dxgpmoctl ("KVER[vtd-strict]/deb-smoke",
# scripts/guest/deb-smoke-job.sh).  Neither runs on make check-debug's
# kernel or without an amd64 kernel.
set -eu

# shellcheck source=vm-lib.sh
. "$(dirname "$0")/vm-lib.sh"
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

# The kernel and the IOMMU platforms of the matrix boots (see above).
iommu_all_modes="vtd-strict vtd-lazy vtd-scalable amd virtio pt"
# The debug kernel (make check-debug) has its drivers built in, maybe not
# these platforms': no matrix there unless asked for.
iommu_default=$iommu_all_modes
[ -z "${DXGPMO_KERNEL_BUILD:-}" ] || iommu_default=
iommu_modes=${DXGPMO_IOMMU_MODES-$iommu_default}
for mode in $iommu_modes; do
	case " $iommu_all_modes " in
	*" $mode "*) ;;
	*)
		echo "check: DXGPMO_IOMMU_MODES: no platform $mode (one of: $iommu_all_modes)" >&2
		exit 1
		;;
	esac
done
# Only the platforms that need a boot of their own.
iommu_boots=$(echo "$iommu_modes" | tr ' ' '\n' | grep -vx 'vtd-strict' |
	grep . || true)
# The matrix is of x86 IOMMUs; arm64 boots its SMMUv3.
iommu_kernel=${DXGPMO_IOMMU_KERNEL:-$(echo "$kernels" | tr ' ' '\n' |
	grep '^6\.12[.-]' | grep -v -- '-arm64$' | sort -V | tail -n 1)}
[ -n "$iommu_kernel" ] || iommu_boots=
iommu_fuzz_ops=${DXGPMO_IOMMU_FUZZ_OPS:-20000}
iommu_parallel=${DXGPMO_IOMMU_PARALLEL:-3}

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

# The literal block that follows the documentation line matching INTRO,
# unindented, with its "dev=" line naming the test VM's spare device: the
# guest runs the real-machine commands exactly as the documentation has them.
# shellcheck disable=SC2016
doc_commands() {
	awk -v intro="$1" 'found && /^[^ \t]/ { exit }
		found && /^    / { print substr($0, 5) }
		$0 ~ intro { found = 1 }' "$top/Documentation/admin-guide/dxgpmo.rst" |
		sed 's/^dev=.*/dev=$DXGPMO_SPARE_PCI/'
}
doc_commands 'prints it::$' > "$build/doc-bind.sh"
doc_commands 'back to its own driver::$' > "$build/doc-unbind.sh"
# The second block goes on with the first one's $dev.
# shellcheck disable=SC2016,SC2015
grep -q '^dev=\$DXGPMO_SPARE_PCI$' "$build/doc-bind.sh" &&
	grep -q 'dxgpmo-pci/unbind' "$build/doc-unbind.sh" || {
	echo "check: the real-machine commands are missing from the documentation" >&2
	exit 1
}

# The initramfs of each boot of KVER.  The tests boot has a display
# (cirrus-vga) the host looks at, and vivid, for the consumer tests.
# steady_cycles KVER: the cycles of each resource-steady pair
# (selftests/steady.h) in KVER's tests boot.  The full 100,000 on one
# kernel, the matrix's (else the first x86 one); 5,000 on the others.
# Each pair runs with vm.max_map_count 200 above the VMAs at its start,
# so a leak of one per cycle fails after 200 cycles at any count: the
# other kernels' 5,000 catch what 20,000 did, and the 15,000 more they
# ran cost the amd64 lane, make check's longest, about a minute.
# On the debug kernel (make check-debug), 1,000: KASAN makes a cycle
# several times slower, a leak of one VMA or file a cycle still fails
# within 200, and the non-debug kernels run the long soak.
steady_kernel=${iommu_kernel:-$(echo "$amd64_kernels" | head -n 1)}
steady_cycles() {
	if [ -n "${DXGPMO_KERNEL_BUILD:-}" ]; then
		echo 1000
	elif [ "$1" = "$steady_kernel" ]; then
		echo 100000
	else
		echo 5000
	fi
}

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

# initramfs_tests KVER [NAME]: the tests boot NAME (tests, or tests2 for
# the suite's second half when it is split).
initramfs_tests() {
	kver=$1 name=${2:-tests} out=$build/$1 user=$(user_dir "$1")
	display=
	[ "$(kernel_arch "$kver")" = arm64 ] ||
		display=$(display_kmod "$kver") || display=
	cycles=$(steady_cycles "$kver")
	part=
	[ "$tests_split" = 1 ] || part=1
	[ "$name" != tests2 ] || part=2
	mkdir -p "$out/$name.d"
	{
		echo "export DXGK_STEADY_CYCLES=$cycles DXGPMO_STEADY_CYCLES=$cycles"
		echo "DXGPMO_TESTS_PART=$part"
	} > "$out/$name.d/tests.env"
	# shellcheck disable=SC2086
	vm_initramfs "$kver" "$out" "$name" "$top/scripts/guest/check-job.sh" \
		"$out/dxgpmo.ko" "$out/$name.d/tests.env" \
		"$user/selftests/dxgpmo_test" "$user/selftests/dxgpmo_adl_test" \
		"$user/selftests/dxgpmo_map_test" "$user/selftests/dxgpmo_dirty_test" \
		"$user/selftests/dxgpmo_granule_test" \
		"$user/selftests/dxgpmo_dmabuf_test" \
		"$user/selftests/dxgpmo_hardening_test" \
		"$user/selftests/dxgpmo_security_test" \
		"$user/selftests/dxgpmo_pci_test" \
		"$build/doc-bind.sh" "$build/doc-unbind.sh" \
		"$user/selftests/dxgpmo_race_test" \
		"$user/selftests/dxgpmo_lifetime_test" \
		"$user/selftests/dxgpmo_scanout_test" \
		"$user/selftests/dxgpmo_capture_test" \
		"$user/selftests/dxgpmo_pool_test" \
		"$user/userspace-tools/dxgpmoctl" "$user/selftests/dxgpmoctl_test.sh" \
		"$user/selftests/json_check" \
		"$user/userspace-tools/examples/dxgk-mobile-gpu" \
		"$user/userspace-tools/examples/dxgk-live-migration" \
		"$user/selftests/libdxgk_test" \
		"$out/dxgpmo_sample_edu.ko" "$user/selftests/dxgpmo_client_sample.sh" \
		-- ${DXGPMO_KERNEL_BUILD:+--none} vgem $display vivid zram
}
# The bug boot loads the default build, the module as installed: no test
# command (dxgpmo_bug_test checks that it answers -ENOTTY).
initramfs_bug() {
	user=$(user_dir "$1")
	vm_initramfs "$1" "$build/$1" bug "$top/scripts/guest/bug-job.sh" \
		"$build/$1/default/dxgpmo.ko" "$user/selftests/dxgpmo_bug_test"
}
initramfs_fuzz() {
	out=$build/$1 user=$(user_dir "$1")
	{
		echo "export DXGPMO_FUZZ_OPS=$fuzz_ops"
		echo "export DXGPMO_FUZZ_SECONDS=$fuzz_seconds"
		[ -z "${DXGPMO_FUZZ_DURATION:-}" ] ||
			echo "export DXGPMO_FUZZ_DURATION=$DXGPMO_FUZZ_DURATION"
		[ -z "${DXGPMO_FUZZ_SEED:-}" ] ||
			echo "export DXGPMO_FUZZ_SEED=$DXGPMO_FUZZ_SEED"
	} > "$out/fuzz.env"
	vm_initramfs "$1" "$out" fuzz "$top/scripts/guest/fuzz-job.sh" \
		"$out/dxgpmo.ko" "$user/selftests/dxgpmo_fuzz" \
		"$user/userspace-tools/dxgpmoctl" "$out/fuzz.env"
}

# initramfs_made NAME KVER: initramfs_NAME KVER, its output in a log and
# its time in build/timing.log.
initramfs_made() {
	case $1 in
	tests2) initramfs_tests "$2" tests2 ;;
	*) "initramfs_$1" "$2" ;;
	esac > "$build/$2/$1.initramfs.log" 2>&1 || true
	phase "$2: $1 initramfs made"
}

# The matrix boot of KVER on the IOMMU platform MODE (vm-boot.sh's
# DXGPMO_VM_IOMMU): the tests the IOMMU changes, a short fuzzer run.
# virtio-iommu's driver is a module on Debian's kernels; pci-stub probes
# the functions that would otherwise join no IOMMU group (iommu-job.sh).
initramfs_iommu() {
	kver=$1 mode=$2 out=$build/$1
	kmods="vgem pci_stub"
	[ "$mode" != virtio ] || kmods="virtio_iommu $kmods"
	mkdir -p "$out/iommu-$mode"
	{
		echo "export DXGPMO_IOMMU_MODE=$mode"
		echo "export DXGPMO_FUZZ_OPS=$iommu_fuzz_ops"
		echo "export DXGPMO_FUZZ_SECONDS=$((((iommu_fuzz_ops + 199999) / 200000) * 300))"
		[ -z "${DXGPMO_FUZZ_SEED:-}" ] ||
			echo "export DXGPMO_FUZZ_SEED=$DXGPMO_FUZZ_SEED"
	} > "$out/iommu-$mode/iommu.env"
	# shellcheck disable=SC2086
	vm_initramfs "$kver" "$out" "iommu-$mode" \
		"$top/scripts/guest/iommu-job.sh" "$out/dxgpmo.ko" \
		"$out/iommu-$mode/iommu.env" \
		"$top/selftests/dxgpmo_adl_test" "$top/selftests/dxgpmo_dirty_test" \
		"$top/selftests/dxgpmo_dmabuf_test" "$top/selftests/dxgpmo_pci_test" \
		"$top/selftests/dxgpmo_fuzz" "$top/userspace-tools/dxgpmoctl" \
		-- ${DXGPMO_KERNEL_BUILD:+--none} $kmods
}

# The module of each kernel, then the initramfs of each of its boots, are
# made one after another in the background: the first kernel's while the
# tools and selftests build (nothing else runs yet, and the first boot
# waits for both), the others during the boots of the kernels before, at a
# lower priority than their guests.  Each boot waits for its own.  The two
# architectures' kernels alternate, so that the first arm64 boot (the
# arm64 lane, below) can start early; the arm64 programs are built just
# before its first initramfs.
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
			# The bug boot's module, built while the tests boot runs.
			vm_build "$top" "$kver" "$build/$kver/default" default ||
				true
			phase "$kver: default module built"
			initramfs_made bug "$kver"
			initramfs_made fuzz "$kver"
			[ "$kver" = "$iommu_kernel" ] || continue
			for mode in $iommu_boots; do
				initramfs_iommu "$kver" "$mode" \
					> "$build/$kver/iommu-$mode.initramfs.log" 2>&1 ||
					true
				phase "$kver: iommu-$mode initramfs made"
			done
		fi
		renice -n 10 -p "$(exec sh -c 'echo $PPID')" > /dev/null 2>&1 ||
			true
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

passed=0 failed=0 skipped=0
# Every failure, with the lines that explain it, repeated at the end: CI
# shows only the last lines of a run.
failures=$build/failures.txt
: > "$failures"

# count_failure MESSAGE: one failure no log line counts, said now and in
# the list at the end.
count_failure() {
	echo "$1" | tee -a "$failures"
	failed=$((failed + 1))
}

# count_lines NAME: the "NAME: PASS|FAIL|SKIP" lines of build/NAME.log,
# shown, counted, and the failures listed at the end.
count_lines() {
	cat "$build/$1.log"
	passed=$((passed + $(grep -c "^$1: PASS" "$build/$1.log" || true)))
	failed=$((failed + $(grep -c "^$1: FAIL" "$build/$1.log" || true)))
	skipped=$((skipped + $(grep -c "^$1: SKIP" "$build/$1.log" || true)))
	grep "^$1: FAIL" "$build/$1.log" >> "$failures" || true
}

# checkpatch and kernel-doc, the harness's own host checks, the DKMS builds
# and libdxgk's host checks (its header as C11 and C++17 with -Werror, its
# dependencies, its unit test) need no VM: they run on the host while the
# first kernel builds and boots (its guest waits on edu's timers much of
# the time), and are counted at the end.
rm -f "$build/lint.status"
(
	# Below the guests (TCG threads) in the scheduler's eyes.
	renice -n 19 -p "$(exec sh -c 'echo $PPID')" > /dev/null 2>&1 || true
	if make -s lint > "$build/lint.log" 2>&1; then
		echo pass > "$build/lint.status"
	else
		echo fail > "$build/lint.status"
	fi
	# A script's failing status counts too when no FAIL line says why.
	for check in host libdxgk; do
		"$top/scripts/$check-check.sh" > "$build/$check.log" 2>&1 || {
			rc=$?
			grep -q "^$check: FAIL" "$build/$check.log" ||
				echo "$check: FAIL $check-check.sh exited $rc" \
					>> "$build/$check.log"
		}
	done
	# A kernel that is not installed (the debug one, the arm64 ones)
	# has no dkms.
	if [ -n "${DXGPMO_KERNEL_BUILD:-}" ] ||
	   ! echo "$kernel_arches" | grep -qx amd64; then
		: > "$build/dkms.log"
	else
		"$top/scripts/dkms-check.sh" > "$build/dkms.log" 2>&1 || true
	fi
) &
host_checks=$!

# The Debian packages (deb-check.sh), in the background of their own, so
# that the smoke boot below does not wait for the host checks above.
rm -f "$build/deb/smoke.status"
deb_check=
if [ -n "${DXGPMO_KERNEL_BUILD:-}" ] ||
   ! echo "$kernel_arches" | grep -qx amd64; then
	: > "$build/deb.log"
else
	(
		renice -n 19 -p "$(exec sh -c 'echo $PPID')" > /dev/null 2>&1 ||
			true
		"$top/scripts/deb-check.sh" > "$build/deb.log" 2>&1 || true
	) &
	deb_check=$!
fi

host_checks_count() {
	wait "$host_checks" || true
	if [ "$(cat "$build/lint.status" 2>/dev/null)" = pass ]; then
		echo "lint: checkpatch --strict, kernel-doc and shellcheck clean"
		passed=$((passed + 1))
	else
		cat "$build/lint.log"
		count_failure "lint: checkpatch --strict, kernel-doc or shellcheck found problems"
		head -n 20 "$build/lint.log" | sed 's/^/lint: /' >> "$failures"
	fi
	count_lines host
	count_lines libdxgk
	# A script that died before saying anything still fails.
	grep -q '^libdxgk: ' "$build/libdxgk.log" ||
		count_failure "libdxgk: libdxgk-check.sh said nothing"
	count_lines dkms
	[ -z "$deb_check" ] || wait "$deb_check" || true
	count_lines deb
	[ -z "$deb_check" ] || grep -q '^deb: \(PASS\|FAIL\)' "$build/deb.log" ||
		count_failure "deb: deb-check.sh said nothing"
}

# Kernel log lines that mean something went wrong, wherever they come from.
# An IOMMU fault: VT-d's DMAR line, AMD-Vi's IO_PAGE_FAULT or virtio-iommu's
# fault on x86, an SMMUv3 event on arm64.
BAD_LOG='(BUG:|BUG at|WARNING:|Oops|DMAR:.*[Ff]ault|IO_PAGE_FAULT|virtio_iommu.*fault from EP|arm-smmu-v3.*event|KASAN|general protection|Call Trace:)'

# Drop what tests bracketed with "dxgpmo-expect: begin/end" (provoked on
# purpose, and checked by the test itself).
unexpected_log() {
	awk '/dxgpmo-expect: begin/ { skip = 1 }
	     !skip { print }
	     /dxgpmo-expect: end/ { skip = 0 }' "$1"
}

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

# default_platform KVER: the IOMMU KVER boots with unless the matrix
# chooses another: emulated VT-d in strict mode, arm64's SMMUv3.
default_platform() {
	if [ "$(kernel_arch "$1")" = arm64 ]; then
		echo smmuv3
	else
		echo vtd-strict
	fi
}

# boot_count KVER NAME LABEL [screen]: the results of the boot_run of
# KVER's NAME, said as LABEL (KVER[platform]/boot), added to the counters.
boot_count() {
	kver=$1 name=$2 label=$3 screen=${4:-}
	out=$build/$kver
	log=$out/$name.log
	qemu_status=$(cat "$out/$name.status" 2>/dev/null || echo none)

	if [ "$qemu_status" = none ]; then
		cat "$out/$name.initramfs.log"
		count_failure "$label: its initramfs could not be made"
		return
	fi

	b_pass=0 b_fail=0 b_skip=0
	# shellcheck disable=SC2013
	for totals in $(sed -n 's/.*# Totals: pass:\([0-9]*\) fail:\([0-9]*\) xfail:\([0-9]*\) xpass:\([0-9]*\) skip:\([0-9]*\) error:\([0-9]*\).*/\1:\2:\3:\4:\5:\6/p' "$log"); do
		IFS=: read -r p f xf xp s e <<TOT
$totals
TOT
		b_pass=$((b_pass + p + xf))
		b_fail=$((b_fail + f + xp + e))
		b_skip=$((b_skip + s))
	done
	b_pass=$((b_pass + $(grep -c '^dxgpmo-check: PASS' "$log" || true)))
	b_fail=$((b_fail + $(grep -c '^dxgpmo-check: FAIL' "$log" || true)))
	# A guest stopped by its timeout: the results of the program it was
	# running count too, one by one (it printed no totals), and the test
	# it was in is named.
	u_running=
	if ! grep -q '^dxgpmo-vm: job exit' "$log"; then
		read -r u_pass u_fail u_skip u_running <<UNFINISHED
$(unfinished_program "$log")
UNFINISHED
		b_pass=$((b_pass + ${u_pass:-0}))
		b_fail=$((b_fail + ${u_fail:-0}))
		b_skip=$((b_skip + ${u_skip:-0}))
	fi
	# The host's own verdicts on what the VM's display showed.
	agent_log=$out/$name.screen/agent.log
	if [ -n "$screen" ] && [ -f "$agent_log" ]; then
		b_pass=$((b_pass + $(grep -c '^dxgpmo-screen: PASS' "$agent_log" || true)))
		b_fail=$((b_fail + $(grep -c '^dxgpmo-screen: FAIL' "$agent_log" || true)))
		grep '^dxgpmo-screen: FAIL' "$agent_log" | tee -a "$failures" || true
	fi

	problems=
	if [ "$qemu_status" -ne 0 ]; then
		problems="$problems qemu-status-$qemu_status"
		tail -n 3 "${log%.log}.qemu.log" 2>/dev/null |
			sed "s|^|$label: qemu: |" >> "$failures"
	fi
	grep -q '^dxgpmo-vm: job exit' "$log" ||
		problems="$problems guest-did-not-finish${u_running:+-in-$u_running}"
	# Every boot runs kselftests but the packages' smoke boot.
	[ "$name" = deb-smoke ] || grep -q '# Totals:' "$log" ||
		problems="$problems no-selftest-totals"
	bad_lines=$(unexpected_log "$log" | grep -E "$BAD_LOG" || true)
	if [ -n "$bad_lines" ]; then
		problems="$problems kernel-log"
		echo "$bad_lines" | head -n 20
		echo "$bad_lines" | head -n 5 | sed "s|^|$label: |" >> "$failures"
	fi
	grep -E '^(not ok|dxgpmo-check: FAIL)' "$log" || true
	failure_digest "$log" > "$out/$name.failures"
	if grep -q ': ended without a result$' "$out/$name.failures"; then
		problems="$problems test-program-crashed"
	fi
	sed "s|^|$label: |" "$out/$name.failures" >> "$failures"
	[ -z "$problems" ] || echo "$label:$problems" >> "$failures"
	for p in $problems; do
		b_fail=$((b_fail + 1))
	done
	grep -E '^ok .*# SKIP' "$log" | sed 's/^/  skipped: /' || true

	# Its time beside the limit it had (vm-boot.sh's timeout).
	b_time=
	if read -r b_seconds b_limit < "$out/$name.seconds" 2>/dev/null; then
		b_time=" in $b_seconds s of $b_limit s"
		[ $((b_seconds * 2)) -le "$b_limit" ] ||
			b_time="$b_time (over half its limit)"
	fi
	echo "$label: $b_pass passed, $b_fail failed, $b_skip skipped$b_time${problems:+ (}${problems# }${problems:+)} [log: ${log#"$top"/}]"
	passed=$((passed + b_pass))
	failed=$((failed + b_fail))
	skipped=$((skipped + b_skip))
}

# kunit_count KVER LABEL: the KUnit cases of KVER's tests boot, said as
# LABEL (KVER[platform]/kunit), added to the counters: when its test build
# has the suites (build_module leaves OUT/kunit; a kernel with KUnit, make
# check-debug's), the job's "dxgpmo-kunit: PASS|FAIL|SKIP suite.case"
# lines, one suite a file of module/kunit/, every one of which must have
# reported.
kunit_count() {
	log=$build/$1/tests.log
	k_pass=$(grep -c '^dxgpmo-kunit: PASS ' "$log" || true)
	k_fail=$(grep -c '^dxgpmo-kunit: FAIL ' "$log" || true)
	k_skip=$(grep -c '^dxgpmo-kunit: SKIP ' "$log" || true)
	grep -E '^dxgpmo-kunit(-ktap)?: (FAIL|SKIP|.*EXPECTATION|.*ASSERTION)' \
		"$log" | head -n 40 || true
	grep '^dxgpmo-kunit: FAIL' "$log" | sed "s|^|$2: |" >> "$failures" ||
		true
	k_suites=$(sed -n 's/^dxgpmo-kunit: [A-Z]* \([A-Za-z0-9_]*\).*/\1/p' \
		"$log" | sort -u | wc -l)
	k_files=$(find "$top/module/kunit" -name '*_kunit.c' | wc -l)
	k_problem=
	if [ "$k_suites" -ne "$k_files" ]; then
		k_problem=" ($k_suites of $k_files suites reported)"
		echo "$2:$k_problem" >> "$failures"
		k_fail=$((k_fail + 1))
	fi
	echo "$2: $k_pass passed, $k_fail failed, $k_skip skipped$k_problem"
	passed=$((passed + k_pass))
	failed=$((failed + k_fail))
	skipped=$((skipped + k_skip))
}

# iommu_matrix_start KVER: the boots of KVER on the other IOMMU platforms,
# DXGPMO_IOMMU_PARALLEL at a time, in the background (iommu_matrix_pid)
# while the next kernels boot: they mostly wait for edu's transfers.
# KVER's own summary waits for them (iommu_matrix_count).
iommu_matrix_pid=
iommu_matrix_start() {
	(
		im_pids=
		for mode in $iommu_boots; do
			(
				export DXGPMO_VM_IOMMU="$mode"
				boot_run "$1" "iommu-$mode"
			) > "$build/$1/iommu-$mode.run.log" 2>&1 &
			im_pids="$im_pids $!"
			# shellcheck disable=SC2086
			if [ "$(echo $im_pids | wc -w)" -ge "$iommu_parallel" ]
			then
				wait $im_pids || true
				im_pids=
			fi
		done
		# shellcheck disable=SC2086
		[ -z "$im_pids" ] || wait $im_pids || true
		date +%s > "$build/$1/iommu.end"
	) &
	iommu_matrix_pid=$!
}

# iommu_matrix_count KVER: once the matrix is done, its lines in the order
# of DXGPMO_IOMMU_MODES, then KVER's summary with what its own boots added
# (iommu_own_*) and its time from k_start to the matrix's end.
iommu_matrix_count() {
	wait "$iommu_matrix_pid" || true
	# kernel_summary's baseline: the counts before KVER's own boots
	kver=$1
	k_passed=$((passed - iommu_own_passed))
	k_failed=$((failed - iommu_own_failed))
	k_skipped=$((skipped - iommu_own_skipped))
	for mode in $iommu_boots; do
		cat "$build/$1/iommu-$mode.run.log"
		boot_count "$1" "iommu-$mode" "$1[$mode]/iommu"
	done
	k_seconds=$(($(cat "$build/$1/iommu.end" 2>/dev/null || date +%s) -
		iommu_k_start))
	kernel_summary
}

# kernel_boots KVER: its three boots (boot_run) on its default platform.
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
	kernel_boot_bug "$1"
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

# kernel_results KVER: the counting of its build and its three boots.
# False when the module did not build (no boots to count).
kernel_results() {
	out=$build/$1
	if ! vm_wait "$out/build.status"; then
		cat "$out/build.log"
		count_failure "$1: module build failed or warned"
		return 1
	fi
	if [ -e "$out/sparse-not-run" ]; then
		echo "$1/sparse: skipped: the kernel's make dropped C=1: $(cat "$out/sparse-not-run")"
		skipped=$((skipped + 1))
	fi
	# The default build (the bug boot's); its boot cannot be made without.
	if [ "$(cat "$out/default/build.status" 2>/dev/null)" != ok ]; then
		cat "$out/default/build.log" 2>/dev/null || true
		count_failure "$1: default module build failed or warned"
	fi
	screen=
	[ "$(kernel_arch "$1")" = arm64 ] || screen=screen
	for name in $tests_boots bug fuzz; do
		boot_count "$1" "$name" "$1[$(default_platform "$1")]/$name" \
			"$([ "$name" = tests ] && echo "$screen")"
		[ "$name" != tests ] || [ ! -e "$out/kunit" ] ||
			kunit_count "$1" "$1[$(default_platform "$1")]/kunit"
	done
}

# One line per kernel: what its build and its boots added, and the time
# (k_seconds, else since k_start).
kernel_summary() {
	echo "$kver: $((passed - k_passed)) passed, $((failed - k_failed)) failed, $((skipped - k_skipped)) skipped in ${k_seconds:-$(($(date +%s) - k_start))} s"
}

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
		iommu_own_passed=$((passed - k_passed))
		iommu_own_failed=$((failed - k_failed))
		iommu_own_skipped=$((skipped - k_skipped))
		iommu_k_start=$k_start
		iommu_matrix_start "$kver"
	else
		kernel_summary
	fi
done

# The smoke boot of the module as dxgpmo-dkms's DKMS built it: in the
# trixie build root, for that root's kernel, the newest amd64 one, which
# is the one make deps caches (cached_kernel); with the packaged
# dxgpmoctl.  It waits for deb-check.sh to ready them (build/deb/smoke).
smoke_kernel=
for kver in $amd64_kernels; do
	[ -z "$deb_check" ] || ! cached_kernel "$kver" > /dev/null ||
		smoke_kernel=$kver
done
if [ -n "$smoke_kernel" ]; then
	smoke_out=$build/$smoke_kernel
	if vm_wait "$build/deb/smoke.status"; then
		vm_initramfs "$smoke_kernel" "$smoke_out" deb-smoke \
			"$top/scripts/guest/deb-smoke-job.sh" \
			"$build/deb/smoke/dxgpmo.ko" "$build/deb/smoke/dxgpmoctl" \
			"$build/deb/smoke/version" \
			> "$smoke_out/deb-smoke.initramfs.log" 2>&1 || true
	else
		echo "deb-check.sh made no DKMS-built module (build/deb.log)" \
			> "$smoke_out/deb-smoke.initramfs.log"
		echo fail > "$smoke_out/deb-smoke.initramfs"
	fi
	boot_run "$smoke_kernel" deb-smoke
	boot_count "$smoke_kernel" deb-smoke \
		"${smoke_kernel}[$(default_platform "$smoke_kernel")]/deb-smoke"
elif [ -n "$deb_check" ]; then
	echo "deb-smoke: skipped: the trixie root's kernel is not among those tested"
	skipped=$((skipped + 1))
fi

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

host_checks_count
if [ -s "$failures" ]; then
	echo "what failed (details in the logs named above):"
	# The host's lines first: a kernel's can be many.
	{
		grep -E '^(lint|host|libdxgk|dkms|deb):' "$failures" || true
		grep -vE '^(lint|host|libdxgk|dkms|deb):' "$failures" || true
	} | head -n 60
	lines=$(wc -l < "$failures")
	[ "$lines" -le 60 ] ||
		echo "($((lines - 60)) more lines in ${failures#"$top"/})"
fi
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
