#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Dxgkrnl's interface in the kernel through the sample KMD
# (samples/dxgkrnl-edu), whose memory code has Windows names only: the
# second edu device is handed to it, its probe runs a WDDM driver's memory
# sequence through DXGKRNL_INTERFACE and writes one line per step to
# debugfs, each counted here; then dxgkrnl_sample_test plays Dxgkrnl's
# live-migration loop against the driver's own memory-basis DDIs.  The
# device goes back to dxgpmo's edu driver at the end, with no object and
# no adapter left behind.
# Prints "dxgpmo-check: PASS|FAIL name" lines for scripts/check.sh.
# Needs dxgpmo loaded, debugfs, ./dxgkrnl_sample_edu.ko,
# ./dxgkrnl_sample_test, ./dxgkrnl_sample_hold, ./dxgpmoctl and
# ./libdxgk_driver_basis_test.

sample=${DXGKRNL_SAMPLE_KO:-./dxgkrnl_sample_edu.ko}

sample_prefix=dxgkrnl_
# shellcheck source=selftests/sample_lib.sh
. ./sample_lib.sh

dev=$(second_edu)
[ -n "$dev" ]
result second_edu_found $?
[ -n "$dev" ] || exit 0
sysdev=/sys/bus/pci/devices/$dev
results=/sys/kernel/debug/dxgkrnl_sample_edu-$dev/results

live_counters > /tmp/dxgkrnl-live-before
if [ -e "$sysdev/driver" ]; then
	echo "$dev" > "$sysdev/driver/unbind"
fi
echo dxgkrnl_sample_edu > "$sysdev/driver_override"
# A kernel client's calls are traced as a user's are, marked kernel=1: the
# probe's sequence, recorded in a tracefs instance of this script's own.
tracefs=/sys/kernel/tracing
[ -d $tracefs/instances ] || tracefs=/sys/kernel/debug/tracing
inst=$tracefs/instances/dxgkrnl-sample-$$
mkdir "$inst" && echo 1 > "$inst/events/dxgpmo/enable"
insmod "$sample" &&
readlink "$sysdev/driver" | grep -q '/dxgkrnl_sample_edu$'
result sample_bound $?
echo 0 > "$inst/tracing_on"
# The first CONTIGUOUS create with its Context, an ADL, a view of each
# mode, the Destroy refused while its object is in use, and the MDL's Open
# and Close.  (The sample's refused Destroy names no AMO: the module
# refuses it before counting ADLs, so no leak check runs; the trace test
# has that event.)
for event in 'dxgpmo_create_pmo: .* kernel=1 .* type=contiguous .*context=0xc0ffee ret=0' \
	'dxgpmo_allocate_adl: .* kernel=1 .* ret=0' \
	'dxgpmo_adl_dma_map: ' 'dxgpmo_free_adl: .* kernel=1 .* ret=0' \
	'dxgpmo_map: .* kernel=1 .* access=kernel .* address=0x0 ret=0' \
	'dxgpmo_unmap: .* kernel=1 .* address=0x0 .* ret=0' \
	'dxgpmo_destroy_pmo: .* kernel=1 .* ret=-16' \
	'dxgpmo_open_pmo: .* kernel=1 .* ret=0' \
	'dxgpmo_close_pmo: .* kernel=1 .* ret=0'; do
	grep -q "$event" "$inst/trace" || echo "missing from the trace: $event"
done > /tmp/dxgkrnl-trace-missing
cat /tmp/dxgkrnl-trace-missing
traced=1
[ -e "$inst/trace" ] && [ ! -s /tmp/dxgkrnl-trace-missing ] && traced=0
result sample_calls_traced $traced
echo 0 > "$inst/events/dxgpmo/enable"
rmdir "$inst"

if [ -r "$results" ]; then
	cat "$results"
	sed -n 's/^\(PASS\|FAIL\) \([a-z_0-9]*\).*/\1 \2/p' "$results" |
	while read -r verdict step; do
		[ "$verdict" = PASS ]
		result "sample_$step" $?
	done
	# The whole sequence, the refusals and the VRAM, all of them.
	[ "$(grep -c '^PASS ' "$results")" -ge 21 ] && ! grep -q '^FAIL' "$results"
	result sample_all_steps_passed $?
else
	result sample_results_present 1
fi

# The driver's own DDIs, reached from user space: its result lines are
# the harness's; its exit status is one more.
./dxgkrnl_sample_test
result migration_test $?

# dxgpmoctl plays the loop too, the driver's adapter named by its id: a
# write of the driver's engine to page 0 between START and the query.
adapter=$(cat /sys/kernel/debug/dxgkrnl_sample_edu-"$dev"/adapter)
vram=/sys/kernel/debug/dxgkrnl_sample_edu-$dev/vram
rm -f /tmp/dxgkrnl-ctl
mkfifo /tmp/dxgkrnl-ctl
./dxgpmoctl -batch - < /tmp/dxgkrnl-ctl > /tmp/dxgkrnl-ctl.out 2>&1 &
ctl=$!
exec 6> /tmp/dxgkrnl-ctl
echo "s=basis create $adapter 0:16K" >&6
# shellcheck disable=SC2016
echo 'basis start $s' >&6
i=0
while ! grep -q 'started dirty tracking' /tmp/dxgkrnl-ctl.out &&
      [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
printf x >> "$vram"
# shellcheck disable=SC2016
printf 'basis query --clear --pages 4 $s\nbasis destroy $s\n' >&6
exec 6>&-
wait "$ctl"
ctl_status=$?
cat /tmp/dxgkrnl-ctl.out
[ $ctl_status = 0 ] &&
grep -q 'cleared (page 0 first): 1000$' /tmp/dxgkrnl-ctl.out
result dxgpmoctl_reaches_the_drivers_ddis $?
# And libdxgk's calls, the adapter opened by its id.
./libdxgk_driver_basis_test "$adapter" "$vram"
result libdxgk_reaches_the_drivers_ddis $?

# A basis held across the driver's unload: the driver destroys its own at
# its stop (with its callbacks, which it uses in the DDI), and the file's
# later calls reach no driver.
rm -f /tmp/dxgkrnl-hold
mkfifo /tmp/dxgkrnl-hold
./dxgkrnl_sample_hold "$adapter" < /tmp/dxgkrnl-hold > /tmp/dxgkrnl-hold.out &
hold=$!
exec 5> /tmp/dxgkrnl-hold
i=0
while ! grep -q held /tmp/dxgkrnl-hold.out && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
grep -q held /tmp/dxgkrnl-hold.out
result basis_held $?

dmesg -c > /dev/null
rmmod dxgkrnl_sample_edu
result sample_unloaded $?
exec 5>&-
wait "$hold"
result basis_after_unload_reaches_no_driver $?
# It stopped its interface itself, and its DDIs' destroys warned nothing.
! dmesg | grep -qE 'without dxgkrnl_stop_device|DxgkDdiDestroyMemoryBasis of'
result stop_is_quiet $?
live_counters | diff /tmp/dxgkrnl-live-before - > /dev/null
result nothing_left_after_unload $?

# The stop from a devres action of the driver's, and none at all: dxgpmo
# stops the interface when the device is let go of, and warns.
for where in devm none; do
	dmesg -c > /dev/null
	insmod "$sample" stop=$where &&
	readlink "$sysdev/driver" | grep -q '/dxgkrnl_sample_edu$'
	result "stop_${where}_bound" $?
	rmmod dxgkrnl_sample_edu
	result "stop_${where}_unloaded" $?
	if [ $where = none ]; then
		dmesg | grep -q 'without dxgkrnl_stop_device'
	else
		! dmesg | grep -q 'without dxgkrnl_stop_device'
	fi
	result "stop_${where}_warned_as_it_should" $?
	! dmesg | grep -qE 'BUG|WARNING|refcount|double free'
	result "stop_${where}_clean" $?
	live_counters | diff /tmp/dxgkrnl-live-before - > /dev/null
	result "stop_${where}_nothing_left" $?
done
echo > "$sysdev/driver_override"
echo "$dev" > /sys/bus/pci/drivers_probe
