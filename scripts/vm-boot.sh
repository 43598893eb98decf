#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Boot one Debian kernel in QEMU (TCG, q35, emulated Intel IOMMU, two edu
# devices, and spare vmxnet3 NICs that no guest driver claims, for the
# generic PCI driver: one alone in its IOMMU group at 0000:00:10.0, two
# functions sharing one at 00:11.0 and 00:11.1; no other NIC) with the given
# initramfs, writing the serial console to LOG.  Returns QEMU's status, or
# 124 on timeout.
#
# usage: vm-boot.sh KVER INITRD LOG [EXTRA_KERNEL_ARGS] [-- QEMU_ARG...]
#
# QEMU_ARGs are added to QEMU's command line as they are (make run's
# shared folders: scripts/run.sh).
#
# DXGPMO_VM_CONSOLE=stdio puts the serial console on standard input and
# output as well as in LOG, for a person at a terminal (make shell):
# Ctrl-A X quits QEMU, Ctrl-A C switches to QEMU's monitor and back, and
# Ctrl-C goes to the guest.  DXGPMO_VM_TIMEOUT (seconds, 900 by default;
# 0: none) stops QEMU.
#
# DXGPMO_VM_IOMMU picks the IOMMU the guest sees and how its kernel uses it
# (the default, vtd-strict, is the one every test kernel boots with):
#   vtd-strict    emulated VT-d, iommu.strict=1 (each unmap flushes the IOTLB)
#   vtd-lazy      emulated VT-d, iommu.strict=0 (Debian's default: unmaps are
#                 flushed later, from a flush queue), without caching mode:
#                 with caching-mode=on the kernel says "IOMMU batching
#                 disallowed due to virtualization" and stays strict
#   vtd-scalable  emulated VT-d in scalable mode (x-scalable-mode=on; first-
#                 or second-level tables as the kernel picks), iommu.strict=1
#   amd           emulated AMD-Vi (amd-iommu), iommu.strict=1
#   virtio        virtio-iommu-pci (ACPI VIOT), iommu.strict=1; its driver,
#                 virtio_iommu, is a module on Debian: the initramfs loads it
#   pt            emulated VT-d, iommu=pt: every device's DMA is untranslated
# The intel_iommu= argument stays on the command line for AMD-Vi and
# virtio-iommu, where no VT-d unit exists and it does nothing.
#
# An arm64 kernel (kernels.sh) boots instead on: QEMU's virt
# machine with an SMMUv3 (and GICv3, for MSIs), the same edu devices and
# spare vmxnet3 functions at the same PCI addresses on its root bus, the
# serial console on ttyAMA0.  -cpu max with QEMU's own pointer
# authentication algorithm (pauth-impdef), which TCG runs several times
# faster than the architected one.
#
# tsc=unstable: under TCG the 6.12 guest sometimes marks the TSC unstable
# about 2 s into boot; the resulting sched_clock static-key flip patches
# code with int3 while the other vCPU runs it, and the guest oopses in
# sched_clock_cpu() (seen 1 boot in 12).  Declaring the TSC unstable from
# the start avoids the runtime flip (0 in 12).
#
# no_timer_check: on a host loaded far beyond its cores the vCPU does not
# run during the kernel's early check that the timer interrupt arrives
# through the remapped IO-APIC, and the guest panics ("timer doesn't work
# through Interrupt-remapped IO-APIC"; 5 early deaths in about 20 boots
# at load 25-45).  The timer works; the check only waits too little.
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
[ $# -ge 3 ] || usage_error "missing arguments"
kver=$1 initrd=$2 log=$3
shift 3
# DXGPMO_VM_CMDLINE adds to them (a boot that make check runs with a
# kernel option of its own).
extra="${DXGPMO_VM_CMDLINE:-}"
# make coverage's boots send their counters back (scripts/guest/init).
[ "${DXGPMO_GCOV:-}" != y ] || extra="$extra dxgpmo_gcov=1"
if [ $# -gt 0 ] && [ "$1" != -- ]; then
	extra="$1 $extra"
	shift
fi
if [ $# -gt 0 ]; then
	[ "$1" = -- ] || usage_error "$1: QEMU's arguments follow --"
	shift
fi
# shellcheck source=kernels.sh
. "$(dirname "$0")/kernels.sh"
dxgpmo_arch=$(kernel_arch "$kver")
# DXGPMO_KERNEL_IMAGE boots a kernel that is not installed (the debug one);
# the newest Debian kernel boots from the image make deps cached.
image=${DXGPMO_KERNEL_IMAGE:-$(kernel_image "$kver")}
timeout_s=${DXGPMO_VM_TIMEOUT:-900}
# DXGPMO_VM_SCREEN=SOCKETS (set by vm-boot-screen.sh): a cirrus-vga display,
# the QMP monitor and a second serial port (ttyS1) on the screen agent's
# sockets, qmp.sock and screen.sock in the directory SOCKETS.
# The screen's arguments are the positional ones, after QEMU_ARGs, so
# that no path is split.
[ -z "${DXGPMO_VM_SCREEN:-}" ] ||
	set -- "$@" -vga none -device cirrus-vga \
		-chardev "socket,id=qmp,path=$DXGPMO_VM_SCREEN/qmp.sock" \
		-mon chardev=qmp,mode=control \
		-chardev "socket,id=screen,path=$DXGPMO_VM_SCREEN/screen.sock" \
		-serial chardev:screen
vtd=intel-iommu,intremap=on,caching-mode=on
case ${DXGPMO_VM_IOMMU:-vtd-strict} in
vtd-strict) iommu_dev=$vtd iommu_args=iommu.strict=1 ;;
vtd-lazy) iommu_dev=intel-iommu,intremap=on iommu_args=iommu.strict=0 ;;
vtd-scalable) iommu_dev=$vtd,x-scalable-mode=on iommu_args=iommu.strict=1 ;;
amd) iommu_dev=amd-iommu,intremap=on iommu_args=iommu.strict=1 ;;
virtio) iommu_dev=virtio-iommu-pci iommu_args=iommu.strict=1 ;;
pt) iommu_dev=$vtd iommu_args=iommu=pt ;;
*)
	echo "vm-boot.sh: DXGPMO_VM_IOMMU=$DXGPMO_VM_IOMMU: not one of vtd-strict vtd-lazy vtd-scalable amd virtio pt" >&2
	exit 2
	;;
esac
mem=${DXGPMO_VM_MEM:-3G}
smp=${DXGPMO_VM_SMP:-2}
# The console comes first: the first -serial is the guest's console.
case ${DXGPMO_VM_CONSOLE:-log} in
log) set -- -monitor none -serial "file:$log" "$@" ;;
stdio)
	set -- -chardev "stdio,id=con,mux=on,signal=off,logfile=$log" \
		-serial chardev:con -mon chardev=con,mode=readline "$@"
	;;
*)
	echo "vm-boot.sh: DXGPMO_VM_CONSOLE=$DXGPMO_VM_CONSOLE: log or stdio" >&2
	exit 2
	;;
esac

if [ "$dxgpmo_arch" = arm64 ]; then
	# No screen: cirrus-vga and its agent are x86 only here.
	[ -z "${DXGPMO_VM_SCREEN:-}" ] ||
		{ echo "vm-boot: no screen on arm64" >&2; exit 1; }
	exec timeout --foreground -k 10 "$timeout_s" \
		qemu-system-aarch64 -accel tcg -cpu max,pauth-impdef=on \
		-smp "$smp" -m "$mem" \
		-machine virt,iommu=smmuv3,gic-version=3 \
		-device edu -device edu \
		-nic none -device vmxnet3,addr=10.0 \
		-device vmxnet3,addr=11.0,multifunction=on \
		-device vmxnet3,addr=11.1 \
		-kernel "$image" -initrd "$initrd" \
		-append "console=ttyAMA0 iommu.strict=1 panic=-1 quiet loglevel=5 $extra" \
		-display none -no-reboot "$@" \
		2> "${log%.log}.qemu.log"
fi
exec timeout --foreground -k 10 "$timeout_s" \
	qemu-system-x86_64 -accel tcg -cpu qemu64 -smp "$smp" -m "$mem" \
	-machine q35,kernel-irqchip=split \
	-device "$iommu_dev" \
	-device edu -device edu \
	-nic none -device vmxnet3,addr=10.0 \
	-device vmxnet3,addr=11.0,multifunction=on -device vmxnet3,addr=11.1 \
	-kernel "$image" -initrd "$initrd" \
	-append "console=ttyS0 intel_iommu=on $iommu_args tsc=unstable no_timer_check panic=-1 quiet loglevel=5 $extra" \
	-display none -no-reboot "$@" \
	2> "${log%.log}.qemu.log"
