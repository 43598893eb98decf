#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The ioctl fuzzer in a VM boot of its own (adl_leak=warn, set by the
# fuzzer), as root and then unprivileged.  fuzz.env, when present, sets DXGPMO_FUZZ_OPS/SEED, the safety
# net DXGPMO_FUZZ_SECONDS and DXGPMO_FUZZ_DURATION (see dxgpmo_fuzz.c).
[ -f ./fuzz.env ] && . ./fuzz.env
env | grep '^DXGPMO_FUZZ_' | sort | sed 's/^/dxgpmo-vm: fuzz env /'
if insmod ./dxgpmo.ko; then
	echo "dxgpmo-check: PASS insmod"
else
	echo "dxgpmo-check: FAIL insmod"
	exit 1
fi
# Calls then also land on an adapter without an engine (the spare PCI
# device on the generic driver), and rmmod unbinds it under the fuzzer's
# leftovers.
if ./dxgpmoctl bind 0000:00:10.0; then
	echo "dxgpmo-check: PASS bind_spare_pci"
else
	echo "dxgpmo-check: FAIL bind_spare_pci"
fi
./dxgpmo_fuzz
echo "dxgpmo-vm: dxgpmo_fuzz exit $?"
# Again, a quarter as long, from workers without privileges: every call
# that needs a capability must fail.  Not a duration run; its own net.
ops=${DXGPMO_FUZZ_OPS:-200000}
seconds=${DXGPMO_FUZZ_SECONDS:-300}
DXGPMO_FUZZ_DURATION= DXGPMO_FUZZ_UNPRIVILEGED=1 \
	DXGPMO_FUZZ_OPS=$(((ops + 3) / 4)) \
	DXGPMO_FUZZ_SECONDS=$((seconds / 4 + 60)) ./dxgpmo_fuzz
echo "dxgpmo-vm: dxgpmo_fuzz unprivileged exit $?"
if rmmod dxgpmo; then
	echo "dxgpmo-check: PASS rmmod_after_fuzz"
else
	echo "dxgpmo-check: FAIL rmmod_after_fuzz"
fi
echo "dxgpmo-vm: dmesg begin"
dmesg
echo "dxgpmo-vm: dmesg end"
