#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The module as the dxgpmo-dkms package's DKMS built it (in the trixie
# build root, deb-check.sh), with dxgpmoctl from the dxgpmo-tools
# package: loaded as a user's machine loads it, with no parameters, and
# a short session: the adapters, an object created on edu0, an ADL the
# edu engine writes through and reads back (behind the IOMMU), the ADL
# freed and the object destroyed; then each sample kernel client built
# against the installed packages, loaded and unloaded.  This boot has no
# kselftests: its "dxgpmo-check:" lines are its results (scripts/check.sh).
# shellcheck source=job-lib.sh
. ./job-lib.sh
load_module
check dev_node test -c /dev/dxgpmo
# The version the packages carry (deb-check.sh wrote it next to the module).
# shellcheck disable=SC2016
check module_version sh -c \
	'test "$(cat /sys/module/dxgpmo/version)" = "$(cat ./version)"'
check default_build_no_debug_ioctls \
	test ! -e /sys/module/dxgpmo/parameters/debug_ioctls
./dxgpmoctl adapter list > /tmp/adapters 2>&1
cat /tmp/adapters
check adapters_edu0_virtual0 sh -c \
	'grep -qw edu0 /tmp/adapters && grep -qw virtual0 /tmp/adapters'
cat > /tmp/smoke.dxgpmo <<'SESSION'
p=pmo create --type mdl --adapter edu0 64K
l=adl allocate $p_amo 64K
dma write edu0 $l_addr dkms-built-module
dma read edu0 $l_addr 17 --expect dkms-built-module
adl free $l
pmo destroy $p $p_amo
SESSION
check create_adl_dma_destroy ./dxgpmoctl -f /tmp/smoke.dxgpmo
# The sample kernel clients as deb-root-test.sh built them, out of the
# tree against the installed packages: each loads on this module (its
# symbols resolved, the namespace imported), which counts it as a
# holder, and unloads.
samples=0
for ko in ./*.ko; do
	if [ "$ko" = ./dxgpmo.ko ] || [ ! -f "$ko" ]; then
		continue
	fi
	samples=$((samples + 1))
	name=$(basename "$ko" .ko | tr - _)
	check "sample_${name}_loads" sh -c "insmod $ko &&
		test -e /sys/module/dxgpmo/holders/$name && rmmod $name"
done
check samples_built_against_the_packages test "$samples" -gt 0
check rmmod rmmod dxgpmo
dump_dmesg
