#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The ADL-leak BUG() test, in a VM boot of its own (the oops taints the
# kernel).  Results are counted by scripts/check.sh like check-job.sh's.
if insmod ./dxgpmo.ko; then
	echo "dxgpmo-check: PASS insmod"
else
	echo "dxgpmo-check: FAIL insmod"
	exit 1
fi
./dxgpmo_bug_test
echo "dxgpmo-vm: dxgpmo_bug_test exit $?"
echo "dxgpmo-vm: dmesg begin"
dmesg
echo "dxgpmo-vm: dmesg end"
