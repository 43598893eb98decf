# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by the VM scripts: which kernels to test, where their images,
# modules and build trees are.

# The newest Debian kernel (trixie-backports) is never installed on the
# host: its headers' tools need trixie's C library and gcc-14.  make deps
# keeps, in the build cache, a trixie build root with its headers and the
# kernel image and modules extracted next to it (kernels/KVER/boot,
# kernels/KVER/lib/modules).
dxgpmo_cache=${DXGPMO_CACHE:-/var/cache/dxgpmo}
build_root=$dxgpmo_cache/trixie-root
cached_kernels=$dxgpmo_cache/kernels
# A bookworm root made the same way, with bookworm's kernel headers: the
# packages (debian/) are installed and used in both (deb-check.sh).
# shellcheck disable=SC2034
bookworm_root=$dxgpmo_cache/bookworm-root

# The architectures make deps fetches kernels for and make check tests:
# amd64 (booted as q35 with an emulated x86 IOMMU) and arm64 (QEMU's virt
# machine with an SMMUv3, the module and programs cross-built).
# DXGPMO_ARCHES names a subset; DXGPMO_ARCH=arm64 (or amd64) is the same
# as DXGPMO_ARCHES of that one.  The arm64 kernels are never installed:
# make deps keeps each one whole, its image, modules and headers, in
# arm64_kernel_dir.  The first architecture named is the one make demo,
# make bench and the DKMS check use.
dxgpmo_arches=${DXGPMO_ARCHES:-${DXGPMO_ARCH:-amd64 arm64}}
for arch in $dxgpmo_arches; do
	case $arch in
	amd64|arm64) ;;
	*) echo "DXGPMO_ARCHES: $arch: amd64 or arm64" >&2; exit 1 ;;
	esac
done
# shellcheck disable=SC2034
primary_arch=${dxgpmo_arches%% *}
# has_arch ARCH: whether ARCH is one of dxgpmo_arches
has_arch() {
	case " $dxgpmo_arches " in
	*" $1 "*) return 0 ;;
	*) return 1 ;;
	esac
}
# kernel_arch KVER: a kernel's architecture, from its Debian name
kernel_arch() {
	case $1 in
	*-arm64) echo arm64 ;;
	*) echo amd64 ;;
	esac
}
arm64_cache=$dxgpmo_cache/arm64
arm64_kernel_dir() {
	echo "$arm64_cache/kernels/$1"
}

# cached_kernel KVER: prints the directory of a cached (not installed)
# kernel and succeeds, or fails for an installed one.
cached_kernel() {
	if [ "$(kernel_arch "$1")" = arm64 ]; then
		[ -f "$(arm64_kernel_dir "$1")/.dxgpmo-complete" ] &&
			arm64_kernel_dir "$1"
		return
	fi
	[ ! -d "/lib/modules/$1/build" ] &&
		[ -f "$cached_kernels/$1/.dxgpmo-complete" ] &&
		[ -d "$build_root/usr/src/linux-headers-$1" ] &&
		echo "$cached_kernels/$1"
}

# debug_tools_root ARCH: where make deps unpacks gdb and strace of ARCH
# with the packages they need (usr/bin/gdb, usr/bin/strace, their
# libraries), which mkinitramfs.sh --debug-tools copies into the image of
# make run and make shell.
debug_tools_root() {
	echo "$dxgpmo_cache/debug-tools/$1"
}

# The linux-source package that kselftest_harness.h, checkpatch.pl and
# kernel-doc come from: one named package, which make deps installs, not
# whichever happens to be newest on the machine.  The tools differ between
# kernel versions (6.1's kernel-doc has no -Wall; its harness is older), so
# a machine with another linux-source would lint and test differently.
# 6.12 is in bookworm (security updates) and is also the debug kernel's
# source.
LINUX_SOURCE_PACKAGE=linux-source-6.12
linux_source_tarball() {
	echo "/usr/src/$LINUX_SOURCE_PACKAGE.tar.xz"
}

# The directory where make deps keeps the tarball's kselftest_harness.h
# (kselftest/), checkpatch.pl (checkpatch/), kernel-doc (kernel-doc/) and
# semantic patches (coccinelle/), one per tarball and set of tools.
LINUX_SOURCE_TOOLS="kselftest checkpatch kernel-doc coccinelle"
linux_source_files() {
	echo "$dxgpmo_cache/linux-source-files/$( (stat -c '%n %s %Y' \
		"$(linux_source_tarball)"; echo "$LINUX_SOURCE_TOOLS") |
		sha256sum | cut -c 1-16)"
}

# kernel_files KVER: the directory under which KVER's boot/vmlinuz-KVER
# and lib/modules/KVER are: the cache's copy for a cached kernel, and for
# a bookworm kernel whose headers are installed but whose image make deps
# unpacked into the cache rather than installed (a kernel only QEMU boots
# needs no initramfs of the host's, whose generation is most of an
# image's install); / for an installed image.
kernel_files() {
	if cached_kernel "$1"; then
		return
	fi
	if [ ! -f "/boot/vmlinuz-$1" ] &&
	   [ -f "$cached_kernels/$1/.dxgpmo-complete" ]; then
		echo "$cached_kernels/$1"
	else
		echo /
	fi
}

# The image QEMU boots for KVER.
kernel_image() {
	ki_dir=$(kernel_files "$1")
	echo "${ki_dir%/}/boot/vmlinuz-$1"
}

# The base directory under which KVER's lib/modules is (modprobe -d).
kernel_modules_base() {
	kernel_files "$1"
}

# in_root DIR CMD...: run CMD in the build root with DIR at /dxgpmo, in a
# private mount namespace, so the mounts go away with the command.
in_root() {
	in_root_bind "" "$@"
}

# in_root_bind EXTRA DIR CMD...: in_root, with the directory EXTRA (if not
# empty) also there at its own path (an arm64 kernel's headers, whose
# Makefile names that path).
in_root_bind() {
	in_root_at "$build_root" "$@"
}

# in_root_at ROOT EXTRA DIR CMD...: in_root_bind in the root ROOT (the
# trixie build root, the bookworm one).
in_root_at() {
	ira_root=$1
	shift
	in_overlay_at "$ira_root" "" "$@"
}

# in_overlay ROOT STATE DIR CMD...: in_root_at ROOT, but through an
# overlay whose upper layer is STATE/upper: whatever CMD changes (a
# package installed) lands there, and ROOT stays as make deps left it.
# Later calls with the same STATE see the changes of earlier ones; rm -rf
# STATE forgets them.
in_overlay() {
	io_root=$1 io_state=$2
	shift 2
	in_overlay_at "$io_root" "$io_state" "" "$@"
}

# in_overlay_at ROOT STATE EXTRA DIR CMD...: what the three above run, the
# overlay with a non-empty STATE.
in_overlay_at() {
	# shellcheck disable=SC2016
	unshare -m --propagation private sh -ec '
		root=$1 state=$2 extra=$3 dir=$4
		shift 4
		if [ -n "$state" ]; then
			mkdir -p "$state/upper" "$state/work" "$state/merged"
			mount -t overlay overlay -o "lowerdir=$root,upperdir=$state/upper,workdir=$state/work" \
				"$state/merged"
			root=$state/merged
		fi
		mount -t proc proc "$root/proc"
		mount --bind "$dir" "$root/dxgpmo"
		if [ -n "$extra" ]; then
			mkdir -p "$root$extra"
			mount --bind "$extra" "$root$extra"
		fi
		exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
			PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			DEBIAN_FRONTEND=noninteractive "$@"' \
		sh "$@"
}

# default_test_kernels [ARCH...]: for each architecture (dxgpmo_arches
# when none is named): amd64's newest installed Debian 6.1 and 6.12
# kernels that have headers and the newest kernel make deps cached; every
# arm64 kernel make deps cached (the same three series).
default_test_kernels() {
	# shellcheck disable=SC2086
	[ $# -gt 0 ] || set -- $dxgpmo_arches
	for dt_arch; do
		"default_${dt_arch}_kernels"
	done
}
default_arm64_kernels() {
	# shellcheck disable=SC2012
	ls "$arm64_cache/kernels" 2>/dev/null | sort -V |
		while read -r k; do
			cached_kernel "$k" > /dev/null && echo "$k"
		done
}
default_amd64_kernels() {
	for series in 6.1 6.12; do
		# shellcheck disable=SC2010
		ls /lib/modules 2>/dev/null | grep "^${series}[.-]" |
			grep -- '-amd64$' | sort -V |
			while read -r k; do
				[ -d "/lib/modules/$k/build" ] && echo "$k"
			done | tail -n 1
	done
	# shellcheck disable=SC2012
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
