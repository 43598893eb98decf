#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dxgpmoctl monitor in the VM: four monitors at once (every event as JSON,
# one process's, one object's, two events' as text) over a scripted
# session and a second process's; each shows what it should and nothing
# else, ends with status 0 on SIGINT or SIGTERM, and leaves no tracefs
# instance, no event enabled and the global buffer as it was.  Then one
# whose reader goes away, and the command's usage errors.
# Prints "dxgpmo-check: PASS|FAIL|SKIP dxgpmoctl_monitor_NAME" lines.

tool=${DXGPMOCTL:-./dxgpmoctl}
json_check=${JSON_CHECK:-./json_check}
dir=/tmp/monitor
status=0

result() {
	if [ "$2" = 0 ]; then
		echo "dxgpmo-check: PASS dxgpmoctl_monitor_$1"
	else
		echo "dxgpmo-check: FAIL dxgpmoctl_monitor_$1"
		status=1
	fi
}

rm -rf "$dir"
mkdir -p "$dir"

# Where the tool looks: mounted, or at its usual places (the one under
# debugfs is mounted when first looked at).
tracefs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -z "$tracefs" ] && [ -d "$d/instances" ] && tracefs=$d
done
if [ -z "$tracefs" ]; then
	echo "dxgpmo-check: SKIP dxgpmoctl_monitor (no tracefs in this kernel)"
	exit 0
fi
if [ ! -d "$tracefs/events/dxgpmo" ]; then
	# A module without trace events looks like no module to the tool.
	"$tool" monitor > "$dir/out" 2> "$dir/err"
	[ $? -eq 1 ] && [ ! -s "$dir/out" ] &&
		grep -q '^monitor: ENOENT — no .*/events/dxgpmo: is the module loaded? (modprobe dxgpmo)$' "$dir/err"
	result no_events_error $?
	cat "$dir/err"
	echo "dxgpmo-check: SKIP dxgpmoctl_monitor (no $tracefs/events/dxgpmo: this module has no trace events)"
	exit "$status"
fi

instances() {
	for i_dir in "$tracefs"/instances/dxgpmoctl-*; do
		[ ! -e "$i_dir" ] || basename "$i_dir"
	done
}

# wait_monitor PID: its events are on (the instance's enable file says 1,
# or X for some of them), or it died, or 10 s went by.
wait_monitor() {
	i=0
	while [ $i -lt 100 ]; do
		e=$(cat "$tracefs/instances/dxgpmoctl-$1/events/dxgpmo/enable" 2>/dev/null)
		[ -n "$e" ] && [ "$e" != 0 ] && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

adapter_id() {	# adapter_id NAME
	"$tool" --json adapter list | tr '{' '\n' |
		sed -n "s/^\"id\":\([0-9]*\),\"name\":\"$1\".*/\1/p"
}

# json_value FILE KEY: the first KEY's number in FILE
json_value() {
	sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p" "$1" | head -n 1
}

edu=$(adapter_id edu0)
virt=$(adapter_id virtual0)

# The session, one command a call; -pmo destroy fails (ENOENT).
cat > "$dir/a.dxgpmo" <<'SCRIPT'
p=pmo create --adapter edu0 64K
l=adl allocate $p_amo 64K
dma write edu0 $l_addr monitor
adl free $l
u=view map $p 0 4K
view unmap $u
pmo close $p_amo
-pmo destroy 4242
pmo destroy $p
s=basis create virtual0 0:16K
basis start $s
basis query $s
basis stop $s
basis destroy $s
SCRIPT
printf 'p=pmo create 4K\npmo destroy $p\n' > "$dir/b.dxgpmo"

# A new file's handles are the same each time: a first run gives the one
# the object monitor must be started with.
"$tool" --json -f "$dir/a.dxgpmo" > "$dir/dry.json" 2>&1
amo=$(json_value "$dir/dry.json" amo)

# The global buffer and its events, as other tests may have left them.
echo dxgpmoctl-monitor-marker > "$tracefs/trace_marker"
global_enable=$(cat "$tracefs/events/dxgpmo/enable")
global_events=$(grep -c ' dxgpmo_' "$tracefs/trace")

# The session reads its commands from a FIFO, so its pid is known before
# it runs (for "pid") while the monitors come up.
mkfifo "$dir/a.fifo"
"$tool" --json -f "$dir/a.fifo" > "$dir/a.json" 2>&1 &
a=$!
"$tool" monitor -j > "$dir/all.json" 2> "$dir/all.err" &
m_all=$!
"$tool" -j monitor pid "$a" > "$dir/pid.json" 2> "$dir/pid.err" &
m_pid=$!
"$tool" -j monitor object "$amo" > "$dir/object.json" 2> "$dir/object.err" &
m_object=$!
"$tool" monitor event create_pmo dxgpmo_destroy_pmo > "$dir/event.txt" 2> "$dir/event.err" &
m_event=$!
ok=0
for m in $m_all $m_pid $m_object $m_event; do
	wait_monitor "$m" || ok=1
done
result started $ok
[ "$(instances | wc -l)" -eq 4 ]
result an_instance_each $?

cat "$dir/a.dxgpmo" > "$dir/a.fifo"
wait "$a"
result session_status $?
"$tool" -f "$dir/b.dxgpmo" > "$dir/b.out" 2>&1 &
b=$!
wait "$b"

kill -INT "$m_all" "$m_pid" "$m_object"
kill -TERM "$m_event"
ok=0
for m in $m_all $m_pid $m_object $m_event; do
	wait "$m" || { echo "monitor $m: exit status $?"; ok=1; }
done
result exit_status_0 $ok
cat "$dir/a.json" "$dir/all.json" "$dir/event.txt" "$dir"/*.err
[ -z "$(instances)" ]
result instances_removed $?
[ "$(cat "$tracefs/events/dxgpmo/enable")" = "$global_enable" ] &&
	grep -q dxgpmoctl-monitor-marker "$tracefs/trace" &&
	[ "$(grep -c ' dxgpmo_' "$tracefs/trace")" = "$global_events" ]
result global_buffer_untouched $?
[ ! -s "$dir/all.err" ] && [ ! -s "$dir/pid.err" ] &&
	[ ! -s "$dir/object.err" ] && [ ! -s "$dir/event.err" ]
result no_errors $?

p=$(json_value "$dir/a.json" pmo)
[ "$(json_value "$dir/a.json" amo)" = "$amo" ]
result same_handles_as_dry_run $?
l=$(json_value "$dir/a.json" adl)
u=$(json_value "$dir/a.json" map)
s=$(json_value "$dir/a.json" basis)
address=$(grep '^{"map":' "$dir/a.json" | sed 's/.*"address":\([0-9]*\).*/\1/')

n=$(grep -c . "$dir/all.json")
"$json_check" "$n" < "$dir/all.json" > /dev/null
result json_valid $?
# each line: the header's fields typed, time in seconds
! grep -v '^{"time":[0-9]*\.[0-9]*,"cpu":[0-9]*,"comm":"[^"]*","tid":[0-9]*,"event":"[a-z_]*",' "$dir/all.json"
result json_header $?

# lines PID EVENT PATTERN...: all.json's lines of PID's EVENT with every
# PATTERN (a "key":value, ended by , or })
lines() {
	l_pid=$1 l_event=$2
	shift 2
	grep "\"event\":\"$l_event\"," "$dir/all.json" |
		grep "\"pid\":${l_pid}[,}]" > "$dir/lines"
	for l_pattern; do
		grep -- "${l_pattern}[,}]" "$dir/lines" > "$dir/lines.next"
		mv "$dir/lines.next" "$dir/lines"
	done
	cat "$dir/lines"
}

# once PID EVENT PATTERN...: exactly one such line
once() {
	[ "$(lines "$@" | wc -l)" -eq 1 ] || {
		echo "not once: $*"
		return 1
	}
}

ok=0
once "$a" create_pmo "\"adapter\":$edu" "\"obj\":$p" "\"amo\":$amo" \
	'"type":"mdl"' '"length":65536' '"ret":0' || ok=1
once "$a" allocate_adl "\"amo\":$amo" "\"obj\":$l" '"ret":0' || ok=1
once "$a" adapter_dma "\"adapter\":$edu" '"ret":0' || ok=1
once "$a" free_adl "\"obj\":$l" '"ret":0' || ok=1
once "$a" map "\"pmo\":$p" "\"obj\":$u" '"ret":0' || ok=1
# UNMAP names the PMO and the view's address, not the view's handle
once "$a" unmap "\"obj\":$p" "\"address\":$address" '"ret":0' || ok=1
once "$a" close_pmo "\"obj\":$amo" '"ret":0' || ok=1
once "$a" destroy_pmo '"obj":4242' '"ret":-2' || ok=1
once "$a" destroy_pmo "\"obj\":$p" '"ret":0' || ok=1
once "$a" create_memory_basis "\"adapter\":$virt" "\"obj\":$s" '"ret":0' || ok=1
once "$a" start_dirty_tracking "\"obj\":$s" '"ret":0' || ok=1
once "$a" query_dirty_bits "\"obj\":$s" '"ret":0' || ok=1
once "$a" stop_dirty_tracking "\"obj\":$s" '"ret":0' || ok=1
once "$a" destroy_memory_basis "\"obj\":$s" '"ret":0' || ok=1
once "$b" create_pmo '"ret":0' || ok=1
once "$b" destroy_pmo '"ret":0' || ok=1
result every_event_with_its_fields $ok
# one open file for the whole session, another for the second process
[ "$(grep "\"pid\":$a," "$dir/all.json" | sed 's/.*"file":\([0-9]*\).*/\1/' | sort -u | wc -l)" -eq 1 ] &&
	[ "$(grep "\"pid\":$b," "$dir/all.json" | sed 's/.*"file":\([0-9]*\).*/\1/' | sort -u | wc -l)" -eq 1 ] &&
	[ "$(grep -E "\"pid\":($a|$b)," "$dir/all.json" | sed 's/.*"file":\([0-9]*\).*/\1/' | sort -u | wc -l)" -eq 2 ]
result file_ids $?

# want and got: the same lines, not none; else the difference shown
same_lines() {
	[ -s "$dir/got" ] && cmp -s "$dir/want" "$dir/got" && return 0
	diff "$dir/want" "$dir/got"
	return 1
}
# Lines compared without time, cpu and comm: each instance records the
# event with its own clock read, and the comm is looked up as a line is
# printed ("<...>" when the kernel's cache of names has no entry yet).
strip() {
	sed 's/^{"time":[^,]*,"cpu":[0-9]*,"comm":"\([^"\\]\|\\.\)*",//'
}
# pid: the session's lines of all.json, and only those
grep "\"pid\":$a," "$dir/all.json" | strip > "$dir/want"
strip < "$dir/pid.json" > "$dir/got"
same_lines
result filter_pid $?
# object: the lines naming the AMO, as obj, pmo or amo, and only those
grep -E "\"(obj|pmo|amo)\":${amo}[,}]" "$dir/all.json" | strip > "$dir/want"
strip < "$dir/object.json" > "$dir/got"
grep -q '"event":"allocate_adl"' "$dir/got" &&
	grep -q '"event":"close_pmo"' "$dir/got" &&
	! grep -q '"event":"map"' "$dir/got" && same_lines
result filter_object $?
# event, as text: the two events of both processes, no other
grep -Eq "^[0-9]+\.[0-9]+ create_pmo file=[0-9]+ pid=$a .*amo=$amo .*ret=0$" "$dir/event.txt" &&
	grep -Eq "^[0-9]+\.[0-9]+ destroy_pmo file=[0-9]+ pid=$a .*obj=4242 .*ret=-2$" "$dir/event.txt" &&
	grep -Eq "^[0-9]+\.[0-9]+ create_pmo file=[0-9]+ pid=$b " "$dir/event.txt" &&
	[ "$(grep -Ec '^[0-9]+\.[0-9]+ (create|destroy)_pmo ' "$dir/event.txt")" -eq 5 ] &&
	[ "$(grep -c . "$dir/event.txt")" -eq 5 ]
result filter_event_text $?

# A monitor whose reader leaves (head) ends with status 0 and removes
# its instance, even while no event comes.
{ "$tool" monitor event create_pmo; echo $? > "$dir/head.status"; } |
	head -n 1 > "$dir/head.out" &
i=0
while [ -z "$(instances)" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
m=$(instances | sed 's/^dxgpmoctl-//')
wait_monitor "$m"
printf 'p=pmo create 4K\npmo destroy $p\n' | "$tool" > /dev/null
i=0
while [ ! -s "$dir/head.status" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
grep -q ' create_pmo ' "$dir/head.out" && [ "$(cat "$dir/head.status")" = 0 ] &&
	[ -z "$(instances)" ]
result reader_gone $?
kill "$m" 2>/dev/null

# usage errors: status 2, nothing on stdout, no instance left
usage() {	# usage NAME PATTERN ARGS...
	u_name=$1 u_pattern=$2
	shift 2
	"$tool" monitor "$@" > "$dir/out" 2> "$dir/err"
	[ $? -eq 2 ] && [ ! -s "$dir/out" ] && grep -q -- "$u_pattern" "$dir/err" &&
		[ -z "$(instances)" ]
	result "$u_name" $?
}
usage usage_unknown_event "no event dxgpmo_no_such_event" event no_such_event
usage usage_no_number "pid: which?" pid
usage usage_bad_number "bad argument 'x'" file x
usage usage_unknown_adapter "bad argument 'no-such-adapter'" adapter no-such-adapter
usage usage_twice "object given twice" object 1 object 2
usage usage_unknown_word "unknown selector 'bogus'" bogus

exit "$status"
