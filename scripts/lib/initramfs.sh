# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by make check (check.sh): what goes in the initramfs of each boot
# of a kernel (vm_initramfs, vm-lib.sh): the job, the modules, the
# programs of the kernel's architecture (user_dir), the kernel's own
# modules after "--", and the environment file each job reads.  One place
# for what a boot carries, with what only a boot uses (the steady pairs'
# cycles, the documentation's real-machine commands), so that adding a
# test program is one edit.
# check.sh sets top, build, the kernel lists, tests_split, the fuzzer's
# and the matrix's settings, and defines user_dir and phase, before it
# calls these.
# shellcheck disable=SC2154

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
# doc_scripts: both blocks in build/doc-bind.sh and build/doc-unbind.sh;
# exits when the documentation lacks them.
doc_scripts() {
	doc_commands 'prints it::$' > "$build/doc-bind.sh"
	doc_commands 'back to its own driver::$' > "$build/doc-unbind.sh"
	# The second block goes on with the first one's $dev.
	# shellcheck disable=SC2016,SC2015
	grep -q '^dev=\$DXGPMO_SPARE_PCI$' "$build/doc-bind.sh" &&
		grep -q 'dxgpmo-pci/unbind' "$build/doc-unbind.sh" || {
		echo "check: the real-machine commands are missing from the documentation" >&2
		exit 1
	}
}

# steady_cycles KVER: the cycles of each resource-steady pair
# (selftests/steady.h) in KVER's tests boot.  20,000 on one kernel, the
# matrix's (else the first x86 one); 5,000 on the others.  Each pair ends
# with the VMAs, files and live counters exactly where they started, so
# a leak that happens once in a run fails it at any count, and with
# vm.max_map_count 200 above the VMAs at its start a leak of one per
# cycle fails within 200 cycles.  The count buys only the chance to see
# a rare race (the four-thread variants) leak once: the 80,000 cycles
# more that 100,000 ran cost about 100 s of that boot, the most of any
# test of make check, and make check-debug's kmemleak sees a leak at any
# rate.
# On the debug kernel (make check-debug), 1,000: KASAN makes a cycle
# several times slower, a leak of one VMA or file a cycle still fails
# within 200, and the non-debug kernels run the longer soak.
steady_cycles() {
	if [ -n "${DXGPMO_KERNEL_BUILD:-}" ]; then
		echo 1000
	elif [ "$1" = "${iommu_kernel:-$(echo "$amd64_kernels" | head -n 1)}" ]
	then
		echo 20000
	else
		echo 5000
	fi
}

# initramfs_tests KVER [NAME]: the tests boot NAME (tests, or tests2 for
# the suite's second half when it is split).  It has a display
# (cirrus-vga) the host looks at, and vivid, for the consumer tests.
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
		"$user/selftests/dxgpmo_trace_test" \
		"$user/selftests/dxgpmo_leak_test" \
		"$user/userspace-tools/dxgpmoctl" "$user/selftests/dxgpmoctl_test.sh" \
		"$user/selftests/dxgpmoctl_monitor.sh" "$user/selftests/json_check" \
		"$user/userspace-tools/dxgpmo-bench" "$user/selftests/dxgpmo_bench_test.sh" \
		"$user/userspace-tools/examples/dxgk-mobile-gpu" \
		"$user/userspace-tools/examples/dxgk-live-migration" \
		"$user/selftests/libdxgk_test" \
		"$user/selftests/libdxgk_migration_test" \
		"$user/selftests/sample_lib.sh" \
		"$out/dxgpmo_sample_edu.ko" "$user/selftests/dxgpmo_client_sample.sh" \
		"$out/dxgkrnl_sample_edu.ko" "$user/selftests/dxgkrnl_sample.sh" \
		"$user/selftests/dxgkrnl_sample_test" \
		"$user/selftests/dxgkrnl_sample_hold" \
		"$user/selftests/libdxgk_driver_basis_test" \
		-- ${DXGPMO_KERNEL_BUILD:+--none} vgem $display vivid zram
}
# The bug boot loads the default build, the module as installed: no test
# command (dxgpmo_bug_test checks that it answers -ENOTTY).  A kernel
# without one (check.sh's default_kernels) boots its test build, and
# bug.env tells the test so, and which kernels have the default build.
initramfs_bug() {
	user=$(user_dir "$1") ko=$build/$1/default/dxgpmo.ko
	if is_default_kernel "$1"; then
		echo "export DXGPMO_BUG_BUILD=default" > "$build/$1/bug.env"
	else
		ko=$build/$1/dxgpmo.ko
		echo "export DXGPMO_BUG_BUILD=test DXGPMO_DEFAULT_BUILD_KERNELS='$default_kernels'" \
			> "$build/$1/bug.env"
	fi
	vm_initramfs "$1" "$build/$1" bug "$top/scripts/guest/bug-job.sh" \
		"$ko" "$build/$1/bug.env" "$user/selftests/dxgpmo_bug_test"
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
