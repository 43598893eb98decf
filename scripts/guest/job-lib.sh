# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by every guest job (in /dxgpmo, where mkinitramfs.sh puts it):
# the lines the host counts, and the steps the jobs share.  The host
# (scripts/check.sh) counts "dxgpmo-check: PASS|FAIL name" lines and the
# kselftests' "# Totals:" lines.  The bad kernel-log lines a test provokes
# on purpose are bracketed by that test itself (dxgpmo_test_utils.h).

# check NAME CMD...: runs CMD, says PASS or FAIL for NAME; CMD's verdict.
check() {
	check_name=$1
	shift
	if "$@"; then
		echo "dxgpmo-check: PASS $check_name"
	else
		echo "dxgpmo-check: FAIL $check_name"
		return 1
	fi
}

# load_module [PARAM...]: insmod ./dxgpmo.ko, counted as "insmod"; a job
# without the module has nothing to run, so it ends there.
load_module() {
	check insmod insmod ./dxgpmo.ko "$@" || exit 1
}

# The guest's uptime in centiseconds.
uptime_cs() {
	read -r up _ < /proc/uptime
	# "1.08": the hundredths as 108 - 100, never read as octal
	echo $((${up%.*} * 100 + 1${up#*.} - 100))
}

# run_test CMD...: a kselftest program (its "# Totals:" line is what
# counts); says how it exited and how long it took, in guest time.
run_test() {
	run_start=$(uptime_cs)
	"$@"
	run_status=$?
	run_cs=$(($(uptime_cs) - run_start))
	echo "dxgpmo-vm: $* exit $run_status ($((run_cs / 100)).$((run_cs / 10 % 10)) s)"
}

# The kernel log, for whoever reads the guest log.
dump_dmesg() {
	echo "dxgpmo-vm: dmesg begin"
	dmesg
	echo "dxgpmo-vm: dmesg end"
}
