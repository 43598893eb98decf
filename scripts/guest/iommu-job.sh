#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The IOMMU matrix boot (scripts/lib/iommu-matrix.sh, DXGPMO_IOMMU_MODES):
# the tests that reach the IOMMU through the module (ADLs, the edu
# engines' DMA, the device cut off after FREE_ADL, dirty tracking of DMA
# writes, dma-buf attachments, the generic PCI driver's ADLs) and a short
# fuzzer run, on a guest whose IOMMU is the one vm-boot.sh's
# DXGPMO_VM_IOMMU chose.
# iommu.env says which (DXGPMO_IOMMU_MODE, which the tests read) and the
# fuzzer's operation count.
# shellcheck source=job-lib.sh
. ./job-lib.sh
# shellcheck source=/dev/null
[ -f ./iommu.env ] && . ./iommu.env
export DXGPMO_TEST_VM=1
echo "dxgpmo-vm: iommu mode ${DXGPMO_IOMMU_MODE:-unset}"
# What the kernel made of the IOMMU: its groups' domain types.
for group in /sys/kernel/iommu_groups/*; do
	[ -e "$group/type" ] &&
		echo "dxgpmo-vm: iommu group ${group##*/} $(cat "$group/type")"
done
load_module debug_ioctls=1
export DXGPMO_SPARE_PCI=0000:00:10.0 DXGPMO_SHARED_PCI=0000:00:11.0 \
	PATH="/dxgpmo:$PATH"
check bind_spare_pci ./dxgpmoctl adapter bind "$DXGPMO_SPARE_PCI"
./dxgpmoctl adapter list | sed 's/^/dxgpmo-vm: /'
echo "dxgpmo-vm: edu0's IOMMU: $(readlink /sys/bus/pci/devices/0000:00:02.0/iommu ||
	readlink /sys/bus/pci/devices/0000:00:03.0/iommu)"
# An IOMMU that firmware tables describe (virtio-iommu, from ACPI VIOT)
# adds a device to an IOMMU group only when a driver probes it.  Both
# functions of the shared-group device are probed once by pci-stub (the
# first is let go again), so that they are in one group as on VT-d, where
# they are from boot, and the pci test's refusal has its premise.
shared=$DXGPMO_SHARED_PCI sibling=${DXGPMO_SHARED_PCI%.0}.1
if [ ! -e "/sys/bus/pci/devices/$shared/iommu_group" ]; then
	for fn in "$sibling" "$shared"; do
		echo pci-stub > "/sys/bus/pci/devices/$fn/driver_override"
		echo "$fn" > /sys/bus/pci/drivers_probe
	done
	echo "$shared" > /sys/bus/pci/drivers/pci-stub/unbind
	echo > "/sys/bus/pci/devices/$shared/driver_override"
	check shared_pci_grouped_with_sibling test \
		"$(readlink "/sys/bus/pci/devices/$shared/iommu_group")" = \
		"$(readlink "/sys/bus/pci/devices/$sibling/iommu_group")"
fi
# Not the engine's own waits (engine_wait_is_killable,
# free_waits_through_back_to_back_calls): seconds of edu transfers each,
# and nothing an IOMMU changes.
run_test ./dxgpmo_adl_test -T engine_wait_is_killable \
	-T free_waits_through_back_to_back_calls
for t in ./dxgpmo_dirty_test ./dxgpmo_dmabuf_test ./dxgpmo_pci_test; do
	run_test "$t"
done
check counters_zero_after_tests sh -c \
	'! grep -vE "^(leaked_|segment_)" /sys/kernel/debug/dxgpmo/stats |
		grep -vq " 0\$"'
check rmmod rmmod dxgpmo
# The fuzzer loads the module itself (adl_leak=warn); it needs the spare
# device bound again.
check reload insmod ./dxgpmo.ko
check bind_spare_pci_for_fuzz ./dxgpmoctl adapter bind "$DXGPMO_SPARE_PCI"
run_test ./dxgpmo_fuzz
check rmmod_after_fuzz rmmod dxgpmo
dump_dmesg
