#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench: boot each test kernel and run dxgpmo-bench; print its table
# and keep the JSON in build/bench-<kernel>.json.  Only ratios measured in
# the same boot mean anything under TCG.
set -eu

# shellcheck source=vm-lib.sh
. "$(dirname "$0")/vm-lib.sh"
vm_prepare
make -s tools
export DXGPMO_VM_MEM="${DXGPMO_VM_MEM:-4G}"
# A run takes about 5 minutes per kernel on an idle host and can take
# several times that on a busy one.
export DXGPMO_VM_TIMEOUT="${DXGPMO_VM_TIMEOUT:-3600}"
for kver in ${DXGPMO_KERNELS:-$(default_test_kernels "$primary_arch")}; do
	out=$build/bench-$kver
	rm -rf "$out"
	mkdir -p "$out"
	vm_build "$top" "$kver" "$out" || { cat "$out/build.log"; exit 1; }
	# The kernel's own allocators the create scenario compares with,
	# when KVER has them as modules (built in, or absent: nothing to do).
	peers=
	for kmod in system_heap udmabuf; do
		modprobe -d "$(kernel_modules_base "$kver")" -S "$kver" \
			--show-depends "$kmod" 2>/dev/null | grep -q '^insmod' &&
			peers="$peers $kmod"
	done
	# shellcheck disable=SC2086
	vm_job "$kver" "$out" guest "" \
		"$top/scripts/guest/bench-job.sh" "$out/dxgpmo.ko" \
		"$top/userspace-tools/dxgpmo-bench" \
		"$top/userspace-tools/dxgpmoctl" ${peers:+-- $peers} || true
	echo "== $kver"
	sed -n '/^SCENARIO/,/^dxgpmo-bench: json begin/p' "$out/guest.log" |
		grep -v '^dxgpmo-bench:' | grep -v '^\['
	sed -n '/^dxgpmo-bench: json begin/,/^dxgpmo-bench: json end/p' \
		"$out/guest.log" | grep '^{' > "$build/bench-$kver.json" || true
	echo "JSON: ${build#"$top"/}/bench-$kver.json ($(wc -l < "$build/bench-$kver.json") measurements)"
	grep -q '^dxgpmo-bench: json end' "$out/guest.log" ||
		echo "$kver: the guest did not finish (DXGPMO_VM_TIMEOUT?); the table above is partial: ${out#"$top"/}/guest.log"
done
