# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by make deps (deps.sh) when arm64 is tested: the arm64 half,
# apart because none of it runs for DXGPMO_ARCHES=amd64 and it fetches
# through an apt configuration of its own that the host's packages never
# see.
# deps.sh sets MIRROR and sources kernels.sh (the cache's paths), and
# defines apt_install, missing and in_root_apt, before it sources this.
# shellcheck disable=SC2154
#
# The arm64 test kernels (the newest of bookworm, bookworm-backports and
# trixie-backports) and an arm64 busybox, fetched with apt-get download
# into the build cache and extracted there, never installed.  apt learns
# of arm64 only through a private configuration and state under the
# cache: the host's dpkg architectures stay as they are.
# Each kernel's directory (arm64_kernel_dir) holds its image, modules and
# headers, with the amd64 linux-kbuild of the same version that its
# headers' scripts link to (the arm64 one's fixdep and modpost would not
# run here); the headers' Makefile names the cache, not /usr/src.

# The cross compilers: bookworm's gcc-12 on the host for 6.1 and 6.12,
# trixie's gcc-14 in the build root for the trixie kernel, whose headers
# ask for it.
# shellcheck disable=SC2046
apt_install $(missing qemu-system-arm gcc-aarch64-linux-gnu \
	libc6-dev-arm64-cross)
root_cross=gcc-14-aarch64-linux-gnu
# shellcheck disable=SC2016
in_root "$cached_kernels/dl" dpkg-query -W -f='${Status}\n' "$root_cross" \
	2>/dev/null |
	grep -q '^install ok installed$' ||
	in_root_apt install -y --no-install-recommends "$root_cross"

apt_dir=$arm64_cache/apt
# apt_arm64 apt-get|apt-cache ARG...
apt_arm64() {
	aa_cmd=$1
	shift
	"$aa_cmd" -o "Dir::State=$apt_dir/state" \
		-o "Dir::State::status=$apt_dir/state/status" \
		-o "Dir::Cache=$apt_dir/cache" \
		-o "Dir::Etc::SourceList=$apt_dir/sources.list" \
		-o "Dir::Etc::SourceParts=$apt_dir/sources.list.d" \
		-o APT::Architecture=arm64 -o APT::Architectures::=arm64 \
		-o APT::Architectures::=amd64 -o Debug::NoLocking=1 "$@"
}
if [ ! -f "$apt_dir/sources.list" ]; then
	mkdir -p "$apt_dir/state/lists/partial" \
		"$apt_dir/cache/archives/partial" "$apt_dir/sources.list.d"
	: > "$apt_dir/state/status"
	for suite in bookworm bookworm-updates bookworm-backports trixie \
		trixie-updates trixie-backports; do
		echo "deb $MIRROR $suite main"
	done > "$apt_dir/sources.list.tmp"
	for suite in bookworm-security trixie-security; do
		echo "deb ${MIRROR%/debian}/debian-security $suite main"
	done >> "$apt_dir/sources.list.tmp"
	mv "$apt_dir/sources.list.tmp" "$apt_dir/sources.list"
	rm -f "$apt_dir/.dxgpmo-lists"
fi
if [ -n "${DXGPMO_REFRESH:-}" ] ||
   [ -z "$(find "$apt_dir/.dxgpmo-lists" -mtime -1 2>/dev/null)" ]; then
	apt_arm64 apt-get -qq update
	touch "$apt_dir/.dxgpmo-lists"
fi

# arm64_depends PKG: the package names PKG depends on, one a line
arm64_depends() {
	apt_arm64 apt-cache show "$1" 2>/dev/null | sed -n 's/^Depends: *//p' |
		head -n 1 | tr ',' '\n' | sed 's/^ *\([^ |]*\).*/\1/'
}


arm64_kvers=
for suite in bookworm bookworm-backports trixie-backports; do
	image=$(arm64_depends "linux-image-arm64/$suite" |
		grep '^linux-image-[0-9]' | head -n 1)
	if [ -z "$image" ]; then
		echo "deps: cannot resolve the arm64 kernel of $suite" >&2
		exit 1
	fi
	kver=${image#linux-image-}
	arm64_kvers="$arm64_kvers $kver"
	dir=$(arm64_kernel_dir "$kver")
	[ -f "$dir/.dxgpmo-complete" ] && continue
	echo "deps: fetching $image (arm64) into $dir"
	rm -rf "$dir"
	headers=linux-headers-$kver
	# the image's own parts (7.x), the headers' common part, and the
	# amd64 kbuild the headers' scripts are
	kbuild=$(arm64_depends "$headers" | grep '^linux-kbuild-')
	# shellcheck disable=SC2046
	arm64_fetch "$dir" "$kver" "$image" $(arm64_depends "$image" |
		grep -- "-$kver\$") "$headers" \
		$(arm64_depends "$headers" | grep -- '-common$') \
		"$kbuild:amd64"
	sed -i "s|/usr/src/|$dir/usr/src/|g" \
		"$dir/usr/src/linux-headers-$kver/Makefile"
	if [ ! -f "$dir/usr/src/linux-headers-$kver/.config" ]; then
		echo "deps: $image (arm64) has no headers" >&2
		exit 1
	fi
	touch "$dir/.dxgpmo-complete"
done

# Older kernels that a suite's newer one replaced (default_test_kernels
# lists every cached one).
for old in "$arm64_cache/kernels"/*; do
	case " $arm64_kvers " in
	*" ${old##*/} "*) ;;
	*) rm -rf "$old" ;;
	esac
done

# Where build_module binds each arm64 kernel into the trixie root (those
# whose headers want gcc-14): the mount points are made now, not by the
# first build, which make check runs while deb-check.sh compares the
# root's paths before and after the packages (a directory that appeared
# meanwhile would be a file the packages left behind).
for kver in $arm64_kvers; do
	mkdir -p "$build_root$(arm64_kernel_dir "$kver")"
done

# The guest's busybox, for mkinitramfs.sh: bookworm's static arm64 one.
if [ ! -x "$arm64_cache/busybox/bin/busybox" ]; then
	rm -rf "$arm64_cache/busybox"
	arm64_fetch_files "$arm64_cache/busybox" busybox-static/bookworm
fi

# What the selftests and tools link statically besides the C library
# (libc6-dev-arm64-cross): bookworm's arm64 libdrm and json-c, extracted
# as a sysroot for build_userspace (vm-lib.sh).
if [ ! -f "$arm64_cache/sysroot/.dxgpmo-complete" ]; then
	rm -rf "$arm64_cache/sysroot"
	arm64_fetch_files "$arm64_cache/sysroot" libdrm-dev/bookworm \
		libdrm2/bookworm libjson-c-dev/bookworm libjson-c5/bookworm
	touch "$arm64_cache/sysroot/.dxgpmo-complete"
fi

# gdb and strace for make run and make shell on arm64 (deps.sh's
# debug_tools_fetch), bookworm's like the rest of the guest's user space.
apt_arm64_bookworm() {
	apt_arm64 apt-get -o APT::Default-Release=bookworm "$@"
}
debug_tools_fetch arm64 apt_arm64_bookworm
