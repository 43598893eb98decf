#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Assemble a busybox initramfs for one test kernel.
#
# usage: mkinitramfs.sh KVER OUT.cpio.gz JOB_SCRIPT FILE... [-- KMOD...]
#
# FILEs (the dxgpmo module, test and tool binaries, scripts) land in /dxgpmo
# together with the shared libraries they need, and JOB_SCRIPT as job.sh
# next to guest/job-lib.sh, which it sources; KMODs are modules of the
# kernel KVER (with their dependencies) loaded before JOB_SCRIPT runs,
# decompressed because busybox insmod cannot read .ko.xz.  A kernel that
# make deps keeps in the build cache has its modules taken from there.
set -eu

kver=$1 out=$2 job=$3
shift 3
# shellcheck source=kernels.sh
. "$(dirname "$0")/kernels.sh"
# KVER's modules: installed, or extracted in the build cache by make deps
modbase=$(kernel_modules_base "$kver")
dxgpmo_arch=$(kernel_arch "$kver")

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root/bin" "$root/dxgpmo" "$root/kmods" "$root/proc" "$root/sys" \
	"$root/dev" "$root/tmp" "$root/lib" "$root/lib64" "$root/etc"
# The guest's busybox: the host's, or make deps' static arm64 one of the
# same Debian release, whose applets the host's lists.
if [ "$dxgpmo_arch" = arm64 ]; then
	cp "$arm64_cache/busybox/bin/busybox" "$root/bin/busybox"
else
	cp /bin/busybox "$root/bin/busybox"
fi
for applet in $(/bin/busybox --list); do
	[ "$applet" = busybox ] || ln -s busybox "$root/bin/$applet"
done

copy_libs() {
	# copy a binary's ELF interpreter and shared libraries at their paths
	ldd "$1" 2>/dev/null | awk '{ for (i = 1; i <= NF; i++)
		if ($i ~ /^\//) print $i }' | while read -r lib; do
		[ -e "$root$lib" ] && continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}

while [ $# -gt 0 ] && [ "$1" != -- ]; do
	cp "$1" "$root/dxgpmo/"
	# arm64's are static: nothing to copy, and no ldd to ask
	[ "$dxgpmo_arch" = arm64 ] || ! file -b "$1" | grep -q ELF ||
		copy_libs "$1"
	shift
done
[ $# -gt 0 ] && shift

: > "$root/kmods/order"
for kmod; do
	# "--none": the kernel is not installed; its drivers are built in
	[ "$kmod" = --none ] && break
	modprobe -d "$modbase" -S "$kver" --show-depends "$kmod" |
	while read -r cmd path _; do
		[ "$cmd" = insmod ] || continue
		name=$(basename "$path")
		grep -qx "${name%.xz}" "$root/kmods/order" && continue
		case "$name" in
		*.xz) xz -dc "$path" > "$root/kmods/${name%.xz}" ;;
		*) cp "$path" "$root/kmods/$name" ;;
		esac
		echo "${name%.xz}" >> "$root/kmods/order"
	done
done

cp "$(dirname "$0")/guest/init" "$root/init"
cp "$job" "$root/dxgpmo/job.sh"
cp "$(dirname "$0")/guest/job-lib.sh" "$root/dxgpmo/job-lib.sh"
chmod +x "$root/init" "$root/dxgpmo/job.sh"
# mktemp made it 0700: the guest's / must be searchable by the tests' nobody
chmod 0755 "$root"

(cd "$root" && find . | cpio -o -H newc --quiet) | gzip -1 > "$out"
