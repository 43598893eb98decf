#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make check-debug: the whole suite and the fuzzer on a debug kernel (KASAN,
# lockdep, kmemleak, DMA-API debugging, DEBUG_VM, fault injection, KUnit)
# built once from Debian's linux-source-6.12 by scripts/debug-kernel.sh and
# cached outside the repository.  The module's KUnit suites run there only
# (build_module builds them for a kernel with KUnit), counted in a line of
# their own, KVER[vtd-strict]/kunit.  Same summary line and exit status as
# make check.
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
[ $# -eq 0 ] || usage_error "no arguments"

top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/deps.sh"
tree=$("$top/scripts/debug-kernel.sh" | tail -n 1)
kver=$(make -s -C "$tree" kernelrelease)
export DXGPMO_KERNEL_IMAGE="$tree/arch/x86/boot/bzImage"
export DXGPMO_KERNEL_BUILD="$tree"
export DXGPMO_KERNELS="$kver"
# KASAN and lockdep make everything slower: more time for each boot.
export DXGPMO_VM_TIMEOUT="${DXGPMO_VM_TIMEOUT:-2400}"
exec "$top/scripts/check.sh"
