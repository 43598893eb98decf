#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Assemble a busybox initramfs for one test kernel.
#
# usage: mkinitramfs.sh [--debug-tools] KVER OUT.cpio.gz JOB_SCRIPT FILE... [-- KMOD...]
#
# FILEs (the dxgpmo module, test and tool binaries, scripts) land in /dxgpmo
# together with the shared libraries they need, and JOB_SCRIPT as job.sh
# next to guest/job-lib.sh, which it sources; KMODs are modules of the
# kernel KVER (with their dependencies) loaded before JOB_SCRIPT runs,
# decompressed because busybox insmod cannot read .ko.xz.  A kernel that
# make deps keeps in the build cache has its modules taken from there.
# The guest's /init is scripts/guest/init: it mounts /proc, /sys, /dev
# and /tmp, loads the KMODs and runs "sh ./job.sh" in /dxgpmo, then powers
# the VM off; the host reads the serial console's log.
#
# --debug-tools adds gdb and strace of KVER's architecture in /usr/bin,
# with the libraries they need (make run and make shell): Debian's, which
# make deps unpacked in debug_tools_root (scripts/kernels.sh); for amd64
# a library the host has is taken from the host, as the programs built
# here expect.
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
debug_tools=
if [ "${1:-}" = --debug-tools ]; then
	debug_tools=1
	shift
fi
[ $# -ge 3 ] || usage_error "missing arguments"
case $1 in
-*) usage_error "unknown option $1" ;;
esac
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

# copy_elf FILE DEST: FILE at DEST in the image, with its ELF interpreter
# and the libraries it needs (readelf's NEEDED, which reads either
# architecture, where ldd can run amd64 binaries only) at
# /lib/TRIPLET/, where the guest's loader looks without an ld.so.cache;
# each library found first in lib_dirs.
copy_elf() {
	mkdir -p "$root$(dirname "$2")"
	cp -L "$1" "$root$2"
	ce_interp=$(readelf -lW "$1" |
		sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')
	if [ -n "$ce_interp" ] && [ ! -e "$root$ce_interp" ]; then
		mkdir -p "$root$(dirname "$ce_interp")"
		for ce_dir in $interp_roots; do
			[ -e "$ce_dir$ce_interp" ] || continue
			cp -L "$ce_dir$ce_interp" "$root$ce_interp"
			break
		done
	fi
	for ce_lib in $(readelf -dW "$1" |
		sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
		[ ! -e "$root/lib/$triplet/$ce_lib" ] || continue
		for ce_dir in $lib_dirs; do
			[ -e "$ce_dir/$ce_lib" ] || continue
			copy_elf "$ce_dir/$ce_lib" "/lib/$triplet/$ce_lib"
			continue 2
		done
		echo "mkinitramfs: $ce_lib, which $1 needs, is in none of $lib_dirs" >&2
		return 1
	done
}

if [ -n "$debug_tools" ]; then
	tools=$(debug_tools_root "$dxgpmo_arch")/root
	[ -x "$tools/usr/bin/gdb" ] ||
		{ echo "mkinitramfs: no gdb in $tools: run 'make deps'" >&2; exit 1; }
	case $dxgpmo_arch in
	arm64) triplet=aarch64-linux-gnu interp_roots=$tools ;;
	*) triplet=x86_64-linux-gnu interp_roots="/ $tools" ;;
	esac
	lib_dirs="$tools/lib/$triplet $tools/usr/lib/$triplet"
	[ "$dxgpmo_arch" = arm64 ] ||
		lib_dirs="/lib/$triplet /usr/lib/$triplet $lib_dirs"
	copy_elf "$tools/usr/bin/gdb" /usr/bin/gdb
	copy_elf "$tools/usr/bin/strace" /usr/bin/strace
	# gdb opens libthread_db itself, to see a program's threads.
	copy_elf "$tools/lib/$triplet/libthread_db.so.1" \
		"/lib/$triplet/libthread_db.so.1"
	# the terminal descriptions gdb's readline needs on the serial console
	cp -R /lib/terminfo "$root/lib/terminfo"
fi

cp "$(dirname "$0")/guest/init" "$root/init"
cp "$job" "$root/dxgpmo/job.sh"
cp "$(dirname "$0")/guest/job-lib.sh" "$root/dxgpmo/job-lib.sh"
chmod +x "$root/init" "$root/dxgpmo/job.sh"
# mktemp made it 0700: the guest's / must be searchable by the tests' nobody
chmod 0755 "$root"

(cd "$root" && find . | cpio -o -H newc --quiet) | gzip -1 > "$out"
