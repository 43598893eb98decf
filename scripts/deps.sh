#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install, from Debian's archive, whatever the build and the VM tests need
# and is not installed yet.  Idempotent: a second run installs nothing and
# does not touch the network.
set -eu

BACKPORTS_LIST=/etc/apt/sources.list.d/dxgpmo-bookworm-backports.sources
TOOLS="qemu-system-x86 busybox-static cpio xz-utils kmod libdrm-dev pkg-config
sparse make gcc libc6-dev file dkms"

updated=
apt_update() {
	[ -n "$updated" ] && return 0
	apt-get update -qq
	updated=1
}

missing() {
	for pkg; do
		dpkg-query -W -f='${Status}\n' "$pkg" 2>/dev/null |
			grep -q '^install ok installed$' || echo "$pkg"
	done
}

apt_install() {
	[ $# -eq 0 ] && return 0
	apt_update
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "$@"
}

has_backports() {
	grep -rqs 'bookworm-backports' /etc/apt/sources.list \
		/etc/apt/sources.list.d/
}

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: must run as root to install packages" >&2
	exit 1
fi

# shellcheck disable=SC2086
apt_install $(missing $TOOLS)

if ! has_backports; then
	cat > "$BACKPORTS_LIST" <<SRC
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	updated=
fi

installed_kernel() {
	# newest installed image of a series, e.g. "6.1" -> 6.1.0-28-amd64
	ls /lib/modules 2>/dev/null | grep "^$1[.-]" | grep -- '-amd64$' |
		sort -V | tail -n 1
}

# Resolve the versioned package behind a suite's linux-image-amd64 meta
# package, so 6.1 and 6.12 can be installed side by side.
versioned_image() {
	apt-cache show "linux-image-amd64/$1" 2>/dev/null |
		sed -n 's/^Depends: *\(linux-image-[0-9][^ ,]*\).*/\1/p' | head -n 1
}

for series in 6.1:bookworm 6.12:bookworm-backports; do
	ver=${series%%:*}
	suite=${series#*:}
	kver=$(installed_kernel "$ver")
	if [ -z "$kver" ] || [ ! -d "/usr/src/linux-headers-$kver" ]; then
		apt_update
		image=$(versioned_image "$suite")
		if [ -z "$image" ]; then
			echo "deps: cannot resolve a $ver kernel in $suite" >&2
			exit 1
		fi
		kver=${image#linux-image-}
		apt_install $(missing "$image" "linux-headers-$kver")
	fi
done

# kselftest_harness.h comes from the kernel source package.
if [ -z "$(ls /usr/src/linux-source-6.*.tar.xz 2>/dev/null)" ]; then
	apt_install linux-source-6.1
fi
