#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The ioctl fuzzer in a VM boot of its own (adl_leak=warn, set by the
# fuzzer), as root and then unprivileged.  fuzz.env, when present, sets DXGPMO_FUZZ_OPS/SEED, the safety
# net DXGPMO_FUZZ_SECONDS and DXGPMO_FUZZ_DURATION (see dxgpmo_fuzz.c).
# shellcheck source=job-lib.sh
. ./job-lib.sh
# shellcheck source=/dev/null
[ -f ./fuzz.env ] && . ./fuzz.env
env | grep '^DXGPMO_FUZZ_' | sort | sed 's/^/dxgpmo-vm: fuzz env /'
load_module
# Calls then also land on an adapter without an engine (the spare PCI
# device on the generic driver), and rmmod unbinds it under the fuzzer's
# leftovers.
check bind_spare_pci ./dxgpmoctl adapter bind 0000:00:10.0
run_test ./dxgpmo_fuzz
# Again, a quarter as long, from workers without privileges: every call
# that needs a capability must fail.  Not a duration run; its own net.
ops=${DXGPMO_FUZZ_OPS:-200000}
seconds=${DXGPMO_FUZZ_SECONDS:-300}
run_test env DXGPMO_FUZZ_DURATION='' DXGPMO_FUZZ_UNPRIVILEGED=1 \
	DXGPMO_FUZZ_OPS=$(((ops + 3) / 4)) \
	DXGPMO_FUZZ_SECONDS=$((seconds / 4 + 60)) ./dxgpmo_fuzz
check rmmod_after_fuzz rmmod dxgpmo
dump_dmesg
