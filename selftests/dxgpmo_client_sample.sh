#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The in-kernel API through its sample client (samples/dxgpmo-edu): the
# second edu device is taken from dxgpmo's edu driver and handed to the
# sample, whose probe runs a WDDM driver's sequence and its faults and
# writes one line per step to debugfs; each line is counted here.  Then
# the same with leave_open=1: the sample's driver lets go of the device
# with its client open, and dxgpmo must close it then, leaving no live
# object and no adapter behind.
# Finally the device goes back to dxgpmo's edu driver.
# Prints "dxgpmo-check: PASS|FAIL name" lines for scripts/check.sh.
# Needs dxgpmo loaded, debugfs, and ./dxgpmo_sample_edu.ko.

sample=${DXGPMO_SAMPLE_KO:-./dxgpmo_sample_edu.ko}
results=/sys/kernel/debug/dxgpmo_sample_edu

sample_prefix=client_
# shellcheck source=selftests/sample_lib.sh
. ./sample_lib.sh

stat() {
	awk -v k="$1" '$1 == k { print $2 }' "$stats"
}

dev=$(second_edu)
[ -n "$dev" ]
result second_edu_found $?
[ -n "$dev" ] || exit 0
sysdev=/sys/bus/pci/devices/$dev

hand_to_sample() {	# hand_to_sample [PARAM...]
	if [ -e "$sysdev/driver" ]; then
		echo "$dev" > "$sysdev/driver/unbind" || return 1
	fi
	echo dxgpmo_sample_edu > "$sysdev/driver_override" &&
	insmod "$sample" "$@" &&
	readlink "$sysdev/driver" | grep -q '/dxgpmo_sample_edu$'
}

give_back() {
	rmmod dxgpmo_sample_edu
	echo > "$sysdev/driver_override"
	echo "$dev" > /sys/bus/pci/drivers_probe
}

adapters_before=$(./dxgpmoctl adapter list | wc -l)
live_counters > /tmp/client-live-before
leaked_before=$(stat leaked_objects)

# While the sample runs, root holds all of root's pinned cap: a kernel
# client has caps of its own, which root's processes do not use up (the
# sample's steps need less than 8 MiB).
max_pinned=/sys/module/dxgpmo/parameters/max_pinned_mb
max_pinned_before=$(cat "$max_pinned")
pages_before=$(stat pages)
echo 8 > "$max_pinned"
rm -f /tmp/client-holder
mkfifo /tmp/client-holder
./dxgpmoctl -batch - < /tmp/client-holder > /dev/null 2>&1 &
holder=$!
exec 4> /tmp/client-holder
echo "held=pmo create 8M" >&4
i=0
while [ "$(stat pages)" -lt $((pages_before + 2048)) ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
! ./dxgpmoctl pmo create 4K > /dev/null 2>&1
result root_cap_held_by_root $?

dmesg -c > /dev/null
hand_to_sample
result sample_bound $?
# shellcheck disable=SC2016
echo 'pmo destroy $held' >&4
exec 4>&-
wait "$holder"
echo "$max_pinned_before" > "$max_pinned"
# Every step the sample ran, as it reported it.
if [ -r "$results/$dev" ]; then
	cat "$results/$dev"
	steps=$(grep -c '^PASS ' "$results/$dev")
	sed -n 's/^\(PASS\|FAIL\) \([a-z_0-9]*\).*/\1 \2/p' "$results/$dev" |
	while read -r verdict step; do
		[ "$verdict" = PASS ]
		result "sample_$step" $?
	done
	# the sequence, the dirty pass and the refusals, all of them
	[ "$steps" -ge 28 ] && ! grep -q '^FAIL' "$results/$dev"
	result sample_all_steps_passed $?
else
	result sample_results_present 1
fi
# The client's adapter is its own: user space does not see it.
! ./dxgpmoctl adapter list | grep -q client
result adapter_invisible_to_user_space $?
[ "$(./dxgpmoctl adapter list | wc -l)" -lt "$adapters_before" ]
result second_edu_gone_from_user_space $?
give_back
result sample_unloaded $?
# A close from remove() is the close: no warning of a client left open.
! dmesg | grep -q 'with client client[0-9]* open'
result close_from_remove_is_quiet $?
live_counters | cmp -s - /tmp/client-live-before
result live_counters_back_after_close $?
[ "$(stat leaked_objects)" = "$leaked_before" ]
result nothing_leaked_after_close $?

# A driver that closes its client from a devres action of its own,
# registered after the open: that runs first, and dxgpmo's entry then
# finds the client closed (no warning, nothing left).
dmesg -c > /dev/null
hand_to_sample devm_close=1
result devm_close_bound $?
devm_unbound=0
echo "$dev" > "$sysdev/driver/unbind" || devm_unbound=1
result devm_close_unbound "$devm_unbound"
! dmesg | grep -q 'let go of the device with client'
result devm_close_closed_by_the_driver $?
live_counters | cmp -s - /tmp/client-live-before
result live_counters_back_after_devm_close $?
give_back
result devm_close_unloaded $?

# A driver that lets go of its device with its client open: dxgpmo closes
# it then, at the unbind, while the device still has its IOMMU group (its
# ADL is unmapped through it), not when the module unloads.
dmesg -c > /dev/null
hand_to_sample leave_open=1
result leave_open_bound $?
grep -q '^PASS leave_objects' "$results/$dev" 2>/dev/null &&
	! grep -q '^FAIL leave_objects' "$results/$dev"
result leave_open_objects_made $?
[ "$(stat pmos)" -gt 0 ] && [ "$(stat adls)" -gt 0 ] 2>/dev/null
result leave_open_objects_live $?
unbound=0
echo "$dev" > "$sysdev/driver/unbind" || unbound=1
result leave_open_unbound "$unbound"
dmesg | grep -q 'dxgpmo_sample_edu let go of the device with client client[0-9]* open: closing it'
result unbind_closes_client $?
live_counters | cmp -s - /tmp/client-live-before
result live_counters_back_after_unbind $?
# the PMO, its AMO, the map and the ADL
leaked=$(stat leaked_objects)
[ "$leaked" = $((leaked_before + 4)) ] ||
	echo "client: $((leaked - leaked_before)) objects leaked at the unbind"
[ "$leaked" = $((leaked_before + 4)) ]
result unbind_counts_four_leaked $?
give_back
result leave_open_unloaded $?
live_counters | cmp -s - /tmp/client-live-before
result live_counters_back_after_unload $?

readlink "$sysdev/driver" | grep -q '/dxgpmo-edu$'
result edu_back_with_dxgpmo $?
