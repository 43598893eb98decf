#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "dkms build" of this tree against every test kernel, in a private dkms and
# source tree under the build directory, so the system's dkms state is not
# touched.  Prints one "dkms: PASS|FAIL <kernel>" line per kernel: the
# module built, and its Module.symvers kept in the dkms tree.  Not part
# of make check, whose packages' lane builds dkms.conf for 6.1 and the
# newest kernel (scripts/lib/host-checks.sh says why).
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
[ $# -eq 0 ] || usage_error "no arguments"

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
# shellcheck source=kernels.sh
. "$top/scripts/kernels.sh"

ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/packaging/dkms.conf")
work=$build/dkms
rm -rf "$work"
mkdir -p "$work/source/dxgpmo-$ver" "$work/tree"
cp -r "$top/Kbuild" "$top/Makefile" "$top/module" "$top/uapi" "$top/include" \
	"$top/packaging" "$work/source/dxgpmo-$ver/"
cp "$top/packaging/dkms.conf" "$work/source/dxgpmo-$ver/dkms.conf"

trees="--sourcetree $work/source --dkmstree $work/tree"
# shellcheck disable=SC2086
dkms add $trees -m dxgpmo -v "$ver" > "$work/add.log" 2>&1 ||
	{ cat "$work/add.log"; echo "dkms: FAIL add"; exit 1; }

# dkms_build KVER: a kernel make deps cached runs its build tools only in
# the trixie build root, so the trixie dkms builds there, in a dkms tree of
# its own under the same directory.
dkms_build() {
	if ! cached_kernel "$1" > /dev/null; then
		# shellcheck disable=SC2086
		dkms build $trees -m dxgpmo -v "$ver" -k "$1"
		return
	fi
	# shellcheck disable=SC2016
	in_root "$work" sh -ec '
		trees="--sourcetree /dxgpmo/source --dkmstree /dxgpmo/root-tree"
		mkdir -p /dxgpmo/root-tree
		[ -e /dxgpmo/root-tree/dxgpmo/$1/source ] ||
			dkms add $trees -m dxgpmo -v "$1"
		dkms build $trees -m dxgpmo -v "$1" -k "$2"' sh "$ver" "$1"
}

status=0
for kver in ${DXGPMO_KERNELS:-$(default_test_kernels "$primary_arch")}; do
	# DKMS builds for the machine's own kernels, not cross
	[ "$(kernel_arch "$kver")" = amd64 ] || continue
	# The module, and its Module.symvers beside it for drivers built
	# against it (dkms.conf's POST_BUILD where DKMS does not keep it).
	if dkms_build "$kver" > "$work/build-$kver.log" 2>&1 &&
	   [ -n "$(find "$work/tree" "$work/root-tree" -path "*/$kver/*" \
		-name 'dxgpmo.ko*' 2>/dev/null)" ] &&
	   [ -n "$(find "$work/tree" "$work/root-tree" \
		-path "*/$kver/*/module/Module.symvers" 2>/dev/null)" ]; then
		echo "dkms: PASS $kver"
	else
		tail -20 "$work/build-$kver.log"
		echo "dkms: FAIL $kver"
		status=1
	fi
done
exit $status
