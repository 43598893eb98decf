# SPDX-License-Identifier: GPL-2.0
# Sourced by the VM scripts: which kernels to test, and building the module
# for one of them out of a copy of the sources (so builds for different
# kernels never share object files).

# The newest Debian kernel (trixie-backports) is never installed on the
# host: its headers' tools need trixie's C library and gcc-14.  make deps
# keeps, in the build cache, a trixie build root with its headers and the
# kernel image and modules extracted next to it (kernels/KVER/boot,
# kernels/KVER/lib/modules).
dxgpmo_cache=${DXGPMO_CACHE:-/var/cache/dxgpmo}
build_root=$dxgpmo_cache/trixie-root
cached_kernels=$dxgpmo_cache/kernels

# cached_kernel KVER: prints the directory of a cached (not installed)
# kernel and succeeds, or fails for an installed one.
cached_kernel() {
	[ ! -d "/lib/modules/$1/build" ] &&
		[ -f "$cached_kernels/$1/.dxgpmo-complete" ] &&
		[ -d "$build_root/usr/src/linux-headers-$1" ] &&
		echo "$cached_kernels/$1"
}

# The image QEMU boots for KVER.
kernel_image() {
	if kdir=$(cached_kernel "$1"); then
		echo "$kdir/boot/vmlinuz-$1"
	else
		echo "/boot/vmlinuz-$1"
	fi
}

# The base directory under which KVER's lib/modules is (modprobe -d).
kernel_modules_base() {
	cached_kernel "$1" || echo /
}

# in_root DIR CMD...: run CMD in the build root with DIR at /dxgpmo, in a
# private mount namespace, so the mounts go away with the command.
in_root() {
	# shellcheck disable=SC2016
	unshare -m --propagation private sh -ec '
		root=$1 dir=$2
		shift 2
		mount -t proc proc "$root/proc"
		mount --bind "$dir" "$root/dxgpmo"
		exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
			PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			DEBIAN_FRONTEND=noninteractive "$@"' \
		sh "$build_root" "$@"
}

# Newest installed Debian 6.1 and 6.12 kernels that have headers, and the
# newest kernel cached by make deps.
default_test_kernels() {
	for series in 6.1 6.12; do
		ls /lib/modules 2>/dev/null | grep "^$series[.-]" |
			grep -- '-amd64$' | sort -V |
			while read -r k; do
				[ -d "/lib/modules/$k/build" ] && echo "$k"
			done | tail -n 1
	done
	ls "$cached_kernels" 2>/dev/null | sort -V | while read -r k; do
		cached_kernel "$k" > /dev/null && echo "$k"
	done | tail -n 1
}

# display_kmod KVER: the module of the DRM driver for QEMU's cirrus-vga,
# cirrus up to 6.x, renamed cirrus-qemu in 7.x.
display_kmod() {
	for kmod in cirrus-qemu cirrus; do
		modprobe -d "$(kernel_modules_base "$1")" -S "$1" \
			--show-depends "$kmod" > /dev/null 2>&1 &&
			{ echo "$kmod"; return 0; }
	done
	return 1
}

# build_module KVER OUTDIR: leaves OUTDIR/dxgpmo.ko; fails on any warning;
# leaves OUTDIR/sparse-not-run if the kernel's make did not run sparse.
build_module() {
	src=$2/src
	mkdir -p "$src"
	cp -r "$top/Kbuild" "$top/module" "$top/uapi" "$src/"
	if [ -z "${DXGPMO_KERNEL_BUILD:-}" ] && cached_kernel "$1" > /dev/null; then
		in_root "$src" make -j"$(nproc)" -C "/usr/src/linux-headers-$1" \
			M=/dxgpmo W=1 C=1 modules > "$2/kbuild.log" 2>&1
	else
		make -j"$(nproc)" \
			-C "${DXGPMO_KERNEL_BUILD:-/lib/modules/$1/build}" \
			M="$src" W=1 C=1 modules > "$2/kbuild.log" 2>&1
	fi || { cat "$2/kbuild.log"; return 1; }
	cat "$2/kbuild.log"
	if grep -E 'warning:|error:' "$2/kbuild.log"; then
		return 1
	fi
	# C=1 is dropped with only a make message when the kernel finds the
	# checker unusable: on Debian's 7.x headers always (they lack
	# scripts/checker-valid.sh, and Debian's sparse 0.6.4 cannot parse
	# __typeof_unqual__, which 7.x headers use under sparse).  Say so.
	grep -o 'C=1 specified, but.*' "$2/kbuild.log" > "$2/sparse-not-run" ||
		rm -f "$2/sparse-not-run"
	cp "$src/module/dxgpmo.ko" "$2/dxgpmo.ko"
}
