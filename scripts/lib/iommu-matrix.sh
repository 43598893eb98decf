# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by make check (check.sh): the IOMMU matrix, the one lane that
# runs beside the kernels' boots and joins the counting late, apart so
# that its settings, its background boots and their counting read
# together.
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
# check.sh sets kernels, build, the counters and the kernel's k_start,
# and defines boot_run, boot_count and kernel_summary, before it calls
# these.
# shellcheck disable=SC2154

# iommu_matrix_config: the kernel and the IOMMU platforms of the matrix
# boots (iommu_kernel, iommu_boots, iommu_fuzz_ops, iommu_parallel);
# exits on a platform vm-boot.sh does not have.  check.sh and
# initramfs.sh read what it sets.
# shellcheck disable=SC2034
iommu_matrix_config() {
	iommu_all_modes="vtd-strict vtd-lazy vtd-scalable amd virtio pt"
	# The debug kernel (make check-debug) has its drivers built in,
	# maybe not these platforms': no matrix there unless asked for.
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
}

# iommu_matrix_start KVER: the boots of KVER on the other IOMMU platforms,
# DXGPMO_IOMMU_PARALLEL at a time, in the background (iommu_matrix_pid)
# while the next kernels boot: they mostly wait for edu's transfers.
# KVER's own summary waits for them (iommu_matrix_count), so what its own
# boots added since k_start is kept for it.
iommu_matrix_pid=
iommu_matrix_start() {
	iommu_own_passed=$((passed - k_passed))
	iommu_own_failed=$((failed - k_failed))
	iommu_own_skipped=$((skipped - k_skipped))
	iommu_k_start=$k_start
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
# (iommu_own_*) and its time from k_start to the matrix's end, which
# kernel_summary (results.sh) reads from kver and k_seconds.
# shellcheck disable=SC2034
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
