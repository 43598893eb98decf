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
# usage: vm-boot.sh KVER INITRD LOG [EXTRA_KERNEL_ARGS]
#
# DXGPMO_ARCH=arm64 (kernels.sh) boots an arm64 kernel instead: QEMU's virt
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

kver=$1 initrd=$2 log=$3
# shellcheck source=kernels.sh
. "$(dirname "$0")/kernels.sh"
# DXGPMO_KERNEL_IMAGE boots a kernel that is not installed (the debug one);
# the newest Debian kernel boots from the image make deps cached.
image=${DXGPMO_KERNEL_IMAGE:-$(kernel_image "$kver")}
extra=${4:-}
timeout_s=${DXGPMO_VM_TIMEOUT:-900}
# DXGPMO_VM_SCREEN=SOCKETS (set by vm-boot-screen.sh): a cirrus-vga display,
# the QMP monitor and a second serial port (ttyS1) on the screen agent's
# sockets, qmp.sock and screen.sock in the directory SOCKETS.
# The screen's arguments are the positional ones, so that no path is split.
set --
[ -z "${DXGPMO_VM_SCREEN:-}" ] ||
	set -- -vga none -device cirrus-vga \
		-chardev "socket,id=qmp,path=$DXGPMO_VM_SCREEN/qmp.sock" \
		-mon chardev=qmp,mode=control \
		-chardev "socket,id=screen,path=$DXGPMO_VM_SCREEN/screen.sock" \
		-serial chardev:screen
mem=${DXGPMO_VM_MEM:-3G}
smp=${DXGPMO_VM_SMP:-2}

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
		-display none -monitor none -serial "file:$log" -no-reboot \
		2> "${log%.log}.qemu.log"
fi
exec timeout --foreground -k 10 "$timeout_s" \
	qemu-system-x86_64 -accel tcg -cpu qemu64 -smp "$smp" -m "$mem" \
	-machine q35,kernel-irqchip=split \
	-device intel-iommu,intremap=on,caching-mode=on \
	-device edu -device edu \
	-nic none -device vmxnet3,addr=10.0 \
	-device vmxnet3,addr=11.0,multifunction=on -device vmxnet3,addr=11.1 \
	-kernel "$image" -initrd "$initrd" \
	-append "console=ttyS0 intel_iommu=on iommu.strict=1 tsc=unstable no_timer_check panic=-1 quiet loglevel=5 $extra" \
	-display none -monitor none -serial "file:$log" -no-reboot \
	"$@" \
	2> "${log%.log}.qemu.log"
