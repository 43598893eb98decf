#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make demo: install what is missing for it alone (deps.sh demo), build,
# boot one VM (the newest test kernel there is: bookworm's 6.1 on a
# machine where make deps never ran) and run scripts/demo.dxgpmo through
# dxgpmoctl, printing what happens.  It ends with a picture on the VM's
# cirrus display, which the host saves from QEMU's screendump as
# build/demo-screen.png.  The full guest log stays in build/demo/guest.log.
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
[ $# -eq 0 ] || usage_error "no arguments"

# shellcheck source=vm-lib.sh
. "$(dirname "$0")/vm-lib.sh"
vm_prepare demo

kver=${DXGPMO_KERNEL:-$(default_test_kernels "$primary_arch" | tail -n 1)}
[ -n "$kver" ] || { echo "demo: no test kernel installed" >&2; exit 1; }
out=$build/demo
rm -rf "$out"
mkdir -p "$out"

make -s tools
echo "demo: building dxgpmo for $kver"
# the module as make install and DKMS build it: the demo shows what a
# user gets, and uses nothing of the test build
vm_build "$top" "$kver" "$out" default || { cat "$out/build.log"; exit 1; }
cp "$top/scripts/demo.dxgpmo" "$out/demo.dxgpmo"
echo "demo: booting $kver in QEMU (TCG, intel-iommu, 2 x edu, cirrus-vga)"
rm -f "$build/demo-screen.png"
vm_job "$kver" "$out" guest screen "$top/scripts/guest/demo-job.sh" \
	"$out/dxgpmo.ko" "$top/userspace-tools/dxgpmoctl" "$out/demo.dxgpmo" \
	"$top/userspace-tools/dxgpmo-demo-screen" \
	"$top/userspace-tools/examples/dxgk-mobile-gpu" \
	"$top/userspace-tools/examples/dxgk-live-migration" \
	-- "$(display_kmod "$kver")" ||
	{ echo "demo: the VM failed; see $out/guest.log" >&2; exit 1; }
sed -n '/^dxgpmo-demo: begin/,/^dxgpmo-demo: end/p' "$out/guest.log" |
	sed '1d;$d'
grep -q '^dxgpmo-demo: end status 0' "$out/guest.log" ||
	{ echo "demo: the session failed; see $out/guest.log" >&2; exit 1; }
[ -f "$out/guest.screen/demo-screen.png" ] ||
	{ echo "demo: the host saved no screendump; see $out/guest.log" >&2; exit 1; }
cp "$out/guest.screen/demo-screen.png" "$build/demo-screen.png"
echo "demo: QEMU's screendump of the VM's display: $build/demo-screen.png"
