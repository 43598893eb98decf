#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install, from Debian's archive, whatever the build and the VM tests need
# and is not installed yet.  Idempotent: a second run installs nothing and
# does not touch the network (the trixie root's package lists, which say
# which kernel is newest, are refreshed once a day; DXGPMO_REFRESH=1 now).
#
# usage: deps.sh [demo]
# With "demo", only what make demo needs: the build tools, QEMU and one
# test kernel, bookworm's own 6.1 (image and headers, from the archive the
# machine already uses) unless a test kernel is there already.  No build
# root, no arm64, no linux-source: a fresh machine reaches the demo's
# picture in a few minutes, and make check installs the rest when it runs.
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
case ${1:-} in
'' | demo) ;;
*) usage_error "unknown argument $1" ;;
esac

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=kernels.sh
. "$top/scripts/kernels.sh"

BACKPORTS_LIST=/etc/apt/sources.list.d/dxgpmo-bookworm-backports.sources
# make demo: the module's (its default build, without sparse) and the
# tools' build, the VM's initramfs and its boot, the screen agent.
DEMO_TOOLS="qemu-system-x86 busybox-static cpio xz-utils kmod libdrm-dev
pkg-config make gcc libc6-dev python3 file"
# make check's test builds run sparse.
TOOLS="$DEMO_TOOLS sparse dkms debootstrap"
# libdxgk's header is also compiled as C++; the CLI test's JSON checker
# uses json-c's parser; make lint runs shellcheck on every script and
# reads the module's calls between files with ctags (layering.sh);
# libdxgk-check.sh asks man where make env's MANPATH leads; make lint
# runs the kernel's semantic patches (coccicheck.sh), cppcheck and
# clang's analyzer (analyze.sh).
TOOLS="$TOOLS g++ libjson-c-dev shellcheck universal-ctags man-db"
TOOLS="$TOOLS coccinelle cppcheck clang"
# make deb builds the Debian packages (debian/) and lints them; dh_dkms
# is in its own package, dh-dkms, in bookworm.
TOOLS="$TOOLS debhelper dh-dkms lintian fakeroot"
# In the trixie build root: what building and dkms-building for the newest
# kernel need besides its headers (gcc-14 is what its config expects).
ROOT_TOOLS="gcc-14 make sparse dkms kmod"
# In both roots, what installing and using the packages (debian/,
# deb-check.sh) needs besides the packages' own dependencies, so that the
# test fetches nothing: the group's adduser, pkg-config, a C compiler
# and library for a program built against libdxgk, dxgpmoctl's libdrm.
DEB_TEST_TOOLS="adduser pkgconf gcc libc6-dev libdrm2"
ROOT_TOOLS="$ROOT_TOOLS $DEB_TEST_TOOLS"
# The bookworm root: dkms and the headers of bookworm's kernel (which
# bring its gcc-12), to build the module as dxgpmo-dkms does there.
BOOKWORM_ROOT_TOOLS="make dkms kmod linux-headers-amd64 $DEB_TEST_TOOLS"
MIRROR=http://deb.debian.org/debian

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

[ "${1:-}" != demo ] || TOOLS=$DEMO_TOOLS
# shellcheck disable=SC2086,SC2046
apt_install $(missing $TOOLS)

# bookworm-backports' 6.12, which the demo does not boot
if [ "${1:-}" != demo ] && ! has_backports; then
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
	# shellcheck disable=SC2010
	ls /lib/modules 2>/dev/null | grep "^$1[.-]" | grep -- '-amd64$' |
		sort -V | tail -n 1
}

# Resolve the versioned package behind a suite's linux-image-amd64 meta
# package, so 6.1 and 6.12 can be installed side by side.
versioned_image() {
	apt-cache show "linux-image-amd64/$1" 2>/dev/null |
		sed -n 's/^Depends: *\(linux-image-[0-9][^ ,]*\).*/\1/p' | head -n 1
}

# unpack_kernel, and the arm64 half's fetches (lib/deps-arm64.sh)
# shellcheck source=lib/deb-unpack.sh
. "$top/scripts/lib/deb-unpack.sh"

# Bookworm's 6.1 and 6.12: their headers installed (the module builds
# with the host's gcc-12), their image unpacked into the cache unless it
# is installed (kernel_files): installing one would also build the
# host an initramfs it never boots, twice, most of make demo's wait on a
# fresh machine.  The demo needs 6.1 alone, and only when no test kernel
# is there.
kernel_series="6.1:bookworm 6.12:bookworm-backports"
if [ "${1:-}" = demo ]; then
	[ -z "$(default_test_kernels amd64)" ] || exit 0
	kernel_series=6.1:bookworm
fi
host_kvers=
mkdir -p "$cached_kernels"
for series in $kernel_series; do
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
		# shellcheck disable=SC2046
		apt_install $(missing "linux-headers-$kver")
	fi
	host_kvers="$host_kvers $kver"
	dir=$cached_kernels/$kver
	if [ -f "/boot/vmlinuz-$kver" ] || [ -f "$dir/.dxgpmo-complete" ]; then
		continue
	fi
	echo "deps: unpacking linux-image-$kver into $dir"
	apt_update
	rm -rf "$dir"
	dl=$(mktemp -d "$cached_kernels/dl.XXXXXX")
	# apt-get download writes there as _apt
	chmod 0777 "$dl"
	(cd "$dl" && apt-get download -qq "linux-image-$kver") ||
		{ rm -rf "$dl"; exit 1; }
	unpack_kernel "$dir" "$kver" "$dl"/*.deb
	rm -rf "$dl"
	touch "$dir/.dxgpmo-complete"
done
[ "${1:-}" != demo ] || exit 0

# kselftest_harness.h, checkpatch.pl and kernel-doc come from one kernel
# source package (kernels.sh says which and why).
# shellcheck disable=SC2046
apt_install $(missing "$LINUX_SOURCE_PACKAGE")

# The Makefile would extract them from the ~150 MB tarball in three passes
# under xz (~10 s of CPU each), which a fresh clone pays again.  They are
# kept in the cache instead, extracted in one pass, for make check to copy;
# renamed into place whole, for runs in parallel.
files=$(linux_source_files)
if [ ! -d "$files" ]; then
	tarball=$(linux_source_tarball)
	srcdir=$(basename "$tarball" .tar.xz)
	mkdir -p "${files%/*}"
	tmp=$(mktemp -d "$files.XXXXXX")
	tar -xf "$tarball" --use-compress-program='xz -T0' -C "$tmp" \
		"$srcdir/tools/testing/selftests/kselftest_harness.h" \
		"$srcdir/tools/testing/selftests/kselftest.h" \
		"$srcdir/scripts/checkpatch.pl" "$srcdir/scripts/spelling.txt" \
		"$srcdir/scripts/const_structs.checkpatch" \
		"$srcdir/scripts/kernel-doc" "$srcdir/scripts/coccinelle"
	mv "$tmp/$srcdir/tools/testing/selftests" "$tmp/kselftest"
	mv "$tmp/$srcdir/scripts/coccinelle" "$tmp/coccinelle"
	touch "$tmp/coccinelle/.extracted"
	mkdir "$tmp/kernel-doc"
	mv "$tmp/$srcdir/scripts/kernel-doc" "$tmp/kernel-doc/"
	mv "$tmp/$srcdir/scripts" "$tmp/checkpatch"
	rm -rf "${tmp:?}/$srcdir"
	chmod 0755 "$tmp"
	mv -T "$tmp" "$files" 2>/dev/null || rm -rf "$tmp"
fi

# The newest kernel Debian offers, trixie-backports' linux-image-amd64, is
# built for in a trixie root made once with debootstrap in the build cache,
# and booted from its image and modules extracted there: nothing of trixie
# is installed on the host.
# root_apt ROOT ARG...: apt-get in ROOT; dpkg's chatter goes to ROOT.log,
# shown on failure
root_apt() {
	ra_root=$1
	shift
	in_root_at "$ra_root" "" "$cached_kernels/dl" \
		apt-get -qq -o=Dpkg::Use-Pty=0 "$@" >> "$ra_root.log" 2>&1 ||
		{ tail -20 "$ra_root.log" >&2; return 1; }
}
in_root_apt() {
	root_apt "$build_root" "$@"
}

# make_root ROOT SUITE PKG...: ROOT, made once with debootstrap from
# SUITE and its -updates (and -backports for trixie), with PKG...; a PKG
# added to the lists later is installed into a root made before.  Its
# package lists are refreshed once a day (DXGPMO_REFRESH=1: now).
make_root() {
	mr_root=$1 mr_suite=$2
	shift 2
	if [ ! -f "$mr_root/.dxgpmo-root" ]; then
		rm -rf "$mr_root" "$mr_root.log"
		echo "deps: creating the $mr_suite build root in $mr_root"
		debootstrap --variant=minbase "$mr_suite" "$mr_root" "$MIRROR" \
			> "$mr_root.debootstrap.log" 2>&1 ||
			{ tail -20 "$mr_root.debootstrap.log"; exit 1; }
		rm -f "$mr_root/etc/apt/sources.list"
		mr_suites="$mr_suite $mr_suite-updates"
		[ "$mr_suite" != trixie ] || mr_suites="$mr_suites trixie-backports"
		cat > "$mr_root/etc/apt/sources.list.d/debian.sources" <<SRC
Types: deb
URIs: $MIRROR
Suites: $mr_suites
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
		mkdir -p "$mr_root/dxgpmo"
		root_apt "$mr_root" update
		root_apt "$mr_root" install -y --no-install-recommends "$@"
		touch "$mr_root/.dxgpmo-root" "$mr_root/.dxgpmo-lists"
	fi
	if [ -n "${DXGPMO_REFRESH:-}" ] ||
	   [ -z "$(find "$mr_root/.dxgpmo-lists" -mtime -1 2>/dev/null)" ]; then
		root_apt "$mr_root" update
		touch "$mr_root/.dxgpmo-lists"
	fi
	mr_missing=$(for mr_pkg; do
		dpkg-query --admindir="$mr_root/var/lib/dpkg" -W \
			-f='${Status}\n' "$mr_pkg" 2>/dev/null |
			grep -q '^install ok installed$' || echo "$mr_pkg"
	done)
	if [ -n "$mr_missing" ]; then
		echo "deps: installing $(echo "$mr_missing" | tr '\n' ' ')in $mr_root"
		# shellcheck disable=SC2086
		root_apt "$mr_root" install -y --no-install-recommends $mr_missing
	fi
}

mkdir -p "$cached_kernels/dl"
# apt-get download in the root writes there as _apt
chmod 0777 "$cached_kernels/dl"
# shellcheck disable=SC2086
make_root "$build_root" trixie $ROOT_TOOLS
# shellcheck disable=SC2086
make_root "$bookworm_root" bookworm $BOOKWORM_ROOT_TOOLS

# depends_of PKG: the package names PKG depends on, one a line
depends_of() {
	in_root "$cached_kernels/dl" apt-cache show "$1" 2>/dev/null |
		sed -n 's/^Depends: *//p' | head -n 1 | tr ',' '\n' |
		sed 's/^ *\([^ ]*\).*/\1/'
}

image=$(depends_of linux-image-amd64/trixie-backports |
	grep '^linux-image-[0-9]' | head -n 1)
if [ -z "$image" ]; then
	echo "deps: cannot resolve the newest kernel in trixie-backports" >&2
	exit 1
fi
kver=${image#linux-image-}

if [ ! -d "$build_root/usr/src/linux-headers-$kver" ]; then
	echo "deps: installing linux-headers-$kver in the trixie root"
	in_root_apt install -y --no-install-recommends "linux-headers-$kver"
fi

dir=$cached_kernels/$kver
if [ ! -f "$dir/.dxgpmo-complete" ]; then
	echo "deps: fetching $image into $dir"
	rm -rf "$dir" "$cached_kernels/dl"/*.deb
	# Since 7.x the image package only depends on linux-binary-KVER (the
	# vmlinuz), linux-modules-KVER and linux-base-KVER: take those too.
	# shellcheck disable=SC2016,SC2046
	in_root "$cached_kernels/dl" sh -c 'cd /dxgpmo && apt-get download -qq "$@"' \
		sh "$image" $(depends_of "$image" | grep -- "-$kver\$") \
		>> "$dxgpmo_cache/trixie-root.log" 2>&1 ||
		{ tail -20 "$dxgpmo_cache/trixie-root.log" >&2; exit 1; }
	unpack_kernel "$dir" "$kver" "$cached_kernels/dl"/*.deb
	rm -f "$cached_kernels/dl"/*.deb
	touch "$dir/.dxgpmo-complete"
fi

# Older newest kernels that a new one replaced (the bookworm kernels'
# images stay).
for old in "$cached_kernels"/*; do
	old=${old##*/}
	case $old in
	dl | dl.*) continue ;;
	esac
	case " $kver $host_kvers " in
	*" $old "*) continue ;;
	esac
	[ ! -d "$cached_kernels/$old" ] ||
		{ rm -rf "${cached_kernels:?}/$old"
		  in_root_apt purge -y "linux-headers-$old" || true; }
done

# gdb and strace for the VM that make run and make shell boot, which has
# no package manager: Debian's gdb-minimal (the full gdb aborts at start
# without Python's standard library, which the image does not carry) and
# strace, of bookworm, with every package they depend on.  apt-get
# install -d against an empty dpkg status downloads all of them whatever
# the host has installed (gdb-minimal conflicts with gdb, which the host
# may have); they are unpacked in debug_tools_root, never installed.
DEBUG_TOOLS="gdb-minimal strace"
# debug_tools_fetch ARCH APT: APT is a command that runs apt-get with
# ARCH's configuration, then the arguments it is given.
debug_tools_fetch() {
	dtf_dir=$(debug_tools_root "$1")
	[ "$(cat "$dtf_dir/.dxgpmo-complete" 2>/dev/null)" != "$DEBUG_TOOLS" ] ||
		return 0
	echo "deps: fetching $DEBUG_TOOLS ($1) into $dtf_dir"
	rm -rf "$dtf_dir"
	mkdir -p "$dtf_dir/dl/archives/partial"
	: > "$dtf_dir/dl/status"
	# apt-get downloads as _apt
	chmod -R 0777 "$dtf_dir/dl"
	# shellcheck disable=SC2086
	"$2" -qq -o "Dir::State::status=$dtf_dir/dl/status" \
		-o "Dir::Cache=$dtf_dir/dl" \
		-o "Dir::Cache::archives=$dtf_dir/dl/archives" \
		-o Debug::NoLocking=1 install -d -y --no-install-recommends \
		$DEBUG_TOOLS > "$dtf_dir.log" 2>&1 ||
		{ tail -20 "$dtf_dir.log" >&2; exit 1; }
	for dtf_deb in "$dtf_dir"/dl/archives/*.deb; do
		dpkg-deb -x "$dtf_deb" "$dtf_dir/root"
	done
	rm -rf "$dtf_dir/dl"
	for dtf_bin in gdb strace; do
		[ -x "$dtf_dir/root/usr/bin/$dtf_bin" ] ||
			{ echo "deps: $DEBUG_TOOLS ($1): no $dtf_bin unpacked" >&2; exit 1; }
	done
	echo "$DEBUG_TOOLS" > "$dtf_dir/.dxgpmo-complete"
}
# The host's own apt, on its package lists.
apt_host() {
	apt_update
	apt-get "$@"
}
debug_tools_fetch amd64 apt_host

# arm64, unless DXGPMO_ARCHES leaves it out: lib/deps-arm64.sh.
has_arch arm64 || exit 0
# shellcheck source=lib/deps-arm64.sh
. "$top/scripts/lib/deps-arm64.sh"
