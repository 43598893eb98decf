# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by make deps (deps.sh): Debian packages unpacked into the build
# cache, never installed.  A library of functions only, so that
# host-check.sh runs them on packages of its own.  The arm64 fetches
# use apt_arm64 and arm64_cache, which lib/deps-arm64.sh and kernels.sh
# define before they call them.
# shellcheck disable=SC2154

# unpack_kernel DIR KVER DEB...: a kernel's packages, unpacked into DIR
# as make check boots it (boot/vmlinuz-KVER, lib/modules/KVER with its
# modules.dep), never installed; the caller marks DIR complete after
# what else it checks.
unpack_kernel() {
	uk_dir=$1 uk_kver=$2
	shift 2
	mkdir -p "$uk_dir"
	for uk_deb; do
		dpkg-deb -x "$uk_deb" "$uk_dir"
	done
	# merged /usr: the modules may be under usr/lib/modules only, and
	# since 7.x the image is lib/modules/KVER/vmlinuz, not in /boot
	[ -e "$uk_dir/lib" ] || ln -s usr/lib "$uk_dir/lib"
	if [ ! -e "$uk_dir/boot/vmlinuz-$uk_kver" ] &&
	   [ -f "$uk_dir/lib/modules/$uk_kver/vmlinuz" ]; then
		mkdir -p "$uk_dir/boot"
		ln -s "../lib/modules/$uk_kver/vmlinuz" \
			"$uk_dir/boot/vmlinuz-$uk_kver"
	fi
	if [ ! -f "$uk_dir/boot/vmlinuz-$uk_kver" ] ||
	   [ ! -d "$uk_dir/lib/modules/$uk_kver" ]; then
		echo "deps: $uk_kver's packages have no vmlinuz or modules" >&2
		exit 1
	fi
	depmod -b "$uk_dir" "$uk_kver"
}

# arm64_download DL PKG...: PKG... downloaded into the new directory DL
# (its name printed); nonzero, and nothing left, when apt fails
arm64_download() {
	ad_dl=$(mktemp -d "$arm64_cache/dl.XXXXXX")
	chmod 0777 "$ad_dl"
	(cd "$ad_dl" && apt_arm64 apt-get -qq download "$@") ||
		{ rm -rf "$ad_dl"; return 1; }
	echo "$ad_dl"
}

# arm64_fetch DIR KVER PKG...: a kernel's packages downloaded and
# unpacked into DIR (unpack_kernel)
arm64_fetch() {
	af_dir=$1 af_kver=$2
	shift 2
	af_dl=$(arm64_download "$@") || return 1
	unpack_kernel "$af_dir" "$af_kver" "$af_dl"/*.deb
	rm -rf "$af_dl"
}

# arm64_fetch_files DIR PKG...: packages that are not a kernel (the
# guest's busybox, the user-space build's sysroot) downloaded and
# extracted into DIR as they are
arm64_fetch_files() {
	aff_dir=$1
	shift
	aff_dl=$(arm64_download "$@") || return 1
	mkdir -p "$aff_dir"
	for aff_deb in "$aff_dl"/*.deb; do
		dpkg-deb -x "$aff_deb" "$aff_dir"
	done
	rm -rf "$aff_dl"
}
