#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The ADL-leak BUG() test, in a VM boot of its own (the oops taints the
# kernel).  Results are counted by scripts/check.sh like check-job.sh's.
# shellcheck source=job-lib.sh
. ./job-lib.sh
# Which build this boot loads (initramfs.sh's initramfs_bug), for the test
# of the default build.
# shellcheck source=/dev/null
[ ! -f ./bug.env ] || . ./bug.env
load_module
run_test ./dxgpmo_bug_test
dump_dmesg
