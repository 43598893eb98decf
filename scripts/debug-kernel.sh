#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build, once, a debug kernel from Debian's linux-source-6.12 with KASAN,
# lockdep, kmemleak, DMA-API debugging, DEBUG_VM and fault injection, plus
# what the test VM needs (PCI, intel-iommu, serial console, devtmpfs, DRM and
# vgem built in).  The tree is cached outside the repository
# (DXGPMO_CACHE, default /var/cache/dxgpmo); a second run only prints the
# path of the built tree, unless the options below changed: then the cached
# tree is reconfigured and rebuilt incrementally.
set -eu

cache=${DXGPMO_CACHE:-/var/cache/dxgpmo}
tree=$cache/linux-debug
stamp=$tree/.dxgpmo-built

# DRM_VMWGFX for MAPPING_DIRTY_HELPERS, which dirty tracking needs;
# USERFAULTFD for the test that blocks QUERY_ADAPTERS in its user copy.
options="-e KASAN -e KASAN_GENERIC -e KASAN_INLINE
	-e PROVE_LOCKING -e DEBUG_ATOMIC_SLEEP
	-e DEBUG_KMEMLEAK -d DEBUG_KMEMLEAK_DEFAULT_OFF
	-e DMA_API_DEBUG -e DEBUG_VM
	-e FAULT_INJECTION -e FAILSLAB -e FAIL_PAGE_ALLOC
	-e FAULT_INJECTION_DEBUG_FS -e DEBUG_FS
	-e PCI -e IOMMU_SUPPORT -e INTEL_IOMMU -e IRQ_REMAP
	-e SERIAL_8250 -e SERIAL_8250_CONSOLE
	-e DEVTMPFS -e DEVTMPFS_MOUNT -e BLK_DEV_INITRD
	-e DRM -e DRM_VGEM -e DRM_VMWGFX -e DMA_SHARED_BUFFER -e SHMEM -e X86_PAT
	-e USERFAULTFD
	-e MODULES -e MODULE_UNLOAD -d MODULE_SIG -d IKHEADERS
	-e DEBUG_INFO_NONE -d DEBUG_INFO_BTF -d DEBUG_INFO_DWARF5
	-d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT"
want=$(echo "$options" | sha256sum | cut -d' ' -f1)

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	echo "$tree"
	exit 0
fi

missing=
for pkg in linux-source-6.12 bc flex bison libelf-dev libssl-dev; do
	dpkg-query -W -f='${Status}\n' "$pkg" 2>/dev/null |
		grep -q '^install ok installed$' || missing="$missing $pkg"
done
if [ -n "$missing" ]; then
	apt-get update -qq
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $missing >&2
fi

mkdir -p "$cache"
if [ ! -f "$stamp" ]; then
	rm -rf "$tree" "$cache/linux-source-6.12"
	tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$cache" >&2
	mv "$cache/linux-source-6.12" "$tree"
	make -s -C "$tree" x86_64_defconfig >&2
fi
cd "$tree"
# shellcheck disable=SC2086
./scripts/config $options \
	--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS ""
make -s olddefconfig >&2
grep -q '^CONFIG_MAPPING_DIRTY_HELPERS=y' .config ||
	{ echo "debug kernel: MAPPING_DIRTY_HELPERS did not get enabled" >&2; exit 1; }
start=$(date +%s)
# modules too: they write the Module.symvers external modules link against
nice make -s -j"$(nproc)" bzImage modules >&2
echo "debug kernel built in $(($(date +%s) - start)) s" >&2
echo "$want" > "$stamp"
echo "$tree"
