#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench: boot each test kernel (every architecture of DXGPMO_ARCHES;
# arm64 on its SMMUv3) and run dxgpmo-bench; print its table and keep the
# JSON in build/bench-<kernel>.json; then one screen of the targets
# (scripts/bench-summary.sh) over every kernel's JSON.  Only ratios
# measured in the same boot mean anything under TCG.
# DXGPMO_BENCH_ONLY="create adl" (of create, adl, map, dirty, scale) runs
# those scenarios only: the before and after of a change in minutes, not
# the full 25.
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
[ $# -eq 0 ] || usage_error "no arguments"

# shellcheck source=vm-lib.sh
. "$(dirname "$0")/vm-lib.sh"
vm_prepare
make -s tools
export DXGPMO_VM_MEM="${DXGPMO_VM_MEM:-4G}"
# A run takes about 5 minutes per kernel on an idle host and can take
# several times that on a busy one.
export DXGPMO_VM_TIMEOUT="${DXGPMO_VM_TIMEOUT:-3600}"
kernels=${DXGPMO_KERNELS:-$(default_test_kernels)}
jsons=
for kver in $kernels; do
	out=$build/bench-$kver
	rm -rf "$out"
	mkdir -p "$out"
	user=$top
	if [ "$(kernel_arch "$kver")" = arm64 ]; then
		# this tree's programs, built once per run
		user=$build/arm64-user
		[ -n "${arm64_built:-}" ] ||
			build_userspace "$top" "$user" > "$build/arm64-user.log" 2>&1 ||
			{ cat "$build/arm64-user.log"; exit 1; }
		arm64_built=1
	fi
	vm_build "$top" "$kver" "$out" || { cat "$out/build.log"; exit 1; }
	# The trace events compiled out: the trace scenario's baseline.
	mkdir -p "$out/notrace"
	vm_build "$top" "$kver" "$out/notrace" notrace ||
		{ cat "$out/notrace/build.log"; exit 1; }
	cp "$out/notrace/dxgpmo.ko" "$out/dxgpmo-notrace.ko"
	# The kernel's own allocators the create scenario compares with,
	# and VFIO, the ADL scenario's peer, when KVER has them as modules
	# (built in, or absent: nothing to do).
	peers=
	for kmod in system_heap udmabuf vfio-pci vfio_iommu_type1; do
		modprobe -d "$(kernel_modules_base "$kver")" -S "$kver" \
			--show-depends "$kmod" 2>/dev/null | grep -q '^insmod' &&
			peers="$peers $kmod"
	done
	echo "export DXGPMO_BENCH_ONLY='${DXGPMO_BENCH_ONLY:-}'" > "$out/bench.env"
	# shellcheck disable=SC2086
	vm_job "$kver" "$out" guest "" \
		"$top/scripts/guest/bench-job.sh" "$out/dxgpmo.ko" \
		"$out/dxgpmo-notrace.ko" \
		"$user/userspace-tools/dxgpmo-bench" \
		"$user/userspace-tools/dxgpmoctl" "$out/bench.env" \
		${peers:+-- $peers} || true
	echo "== $kver"
	sed -n '/^SCENARIO/,/^dxgpmo-bench: json begin/p' "$out/guest.log" |
		grep -v '^dxgpmo-bench:' | grep -v '^\['
	sed -n '/^dxgpmo-bench: json begin/,/^dxgpmo-bench: json end/p' \
		"$out/guest.log" | grep '^{' > "$build/bench-$kver.json" || true
	echo "JSON: ${build#"$top"/}/bench-$kver.json ($(wc -l < "$build/bench-$kver.json") measurements)"
	grep -q '^dxgpmo-bench: json end' "$out/guest.log" ||
		echo "$kver: the guest did not finish (DXGPMO_VM_TIMEOUT?); the table above is partial: ${out#"$top"/}/guest.log"
	jsons="$jsons $build/bench-$kver.json"
done
# shellcheck disable=SC2086
"$top/scripts/bench-summary.sh" $jsons
