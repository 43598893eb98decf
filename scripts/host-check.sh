#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Checks of the test harness's own host side, no VM: what make check
# needs of the host wherever the repository was cloned; and dxgpmoctl
# monitor's parser, which needs no module.
# One "host: PASS|FAIL name" line each, which make check counts.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
agent=
trap '[ -z "$agent" ] || kill "$agent" 2>/dev/null; rm -rf "$tmp"' EXIT
status=0

result() {
	if [ "$1" -eq 0 ]; then
		echo "host: PASS $2"
	else
		echo "host: FAIL $2"
		status=1
	fi
}

# The screen agent comes up, and cleans up, under a directory whose path
# is longer than a socket's path may be (CI clones into deep workspaces).
deep=$tmp/$(printf '%0120d' 0)/tests.screen
mkdir -p "$deep"
/usr/bin/python3 "$top/scripts/screen-agent.py" "$deep" 2> "$tmp/agent.err" &
agent=$!
# Wall time, not a count of polls: this runs at the lowest priority next
# to the guests.
deadline=$(($(date +%s) + 30))
while [ ! -e "$deep/ready" ] && kill -0 "$agent" 2>/dev/null &&
	[ "$(date +%s)" -lt "$deadline" ]; do
	sleep 0.1
done
sockets=$(cat "$deep/ready" 2>/dev/null)
ok=1
[ -n "$sockets" ] && [ -S "$sockets/qmp.sock" ] &&
	[ -S "$sockets/screen.sock" ] && ok=0
kill "$agent" 2>/dev/null
wait "$agent" 2>/dev/null
agent=
[ -z "$sockets" ] || [ ! -e "$sockets" ] || ok=1
[ "$ok" -eq 0 ] || cat "$tmp/agent.err"
result "$ok" screen_agent_deep_directory

# The failure digest of a boot's log (lib/results.sh): a test program that
# crashed is named although it printed no "not ok", and a failed test is
# shown with its own assertion, not the crashed program's last words.
# shellcheck source=lib/results.sh
. "$top/scripts/lib/results.sh"
printf '%s\r\n' 'TAP version 13' '#  RUN           a.one ...' \
	'#            OK  a.one' 'ok 1 a.one' '# Totals: pass:1 fail:0' \
	'dxgpmo-vm: ./a exit 0 (0.1 s)' '# last words of b' \
	'dxgpmo-vm: ./b exit 139 (0.2 s)' 'TAP version 13' \
	'#  RUN           c.two ...' '# c.c:7:two:Expected 1 (1) == 2 (2)' \
	'#          FAIL  c.two' 'not ok 1 c.two' \
	'dxgpmo-vm: ./c exit 1 (0.1 s)' 'dxgpmo-check: FAIL rmmod' \
	> "$tmp/boot.log"
failure_digest "$tmp/boot.log" > "$tmp/digest"
printf '%s\n' 'dxgpmo-vm: ./b exit 139 (0.2 s): ended without a result' \
	'  # c.c:7:two:Expected 1 (1) == 2 (2)' 'not ok 1 c.two' \
	'dxgpmo-check: FAIL rmmod' > "$tmp/want"
cmp -s "$tmp/want" "$tmp/digest"
ok=$?
[ "$ok" -eq 0 ] || diff "$tmp/want" "$tmp/digest"
result "$ok" failure_digest_names_crash_and_assertion

# An oops in a boot's log is repeated in the failure list with what ran,
# where it stopped and how it got there; one provoked on purpose is not.
printf '%s\r\n' 'dxgpmo-expect: begin' '[ 1.0] WARNING: provoked' \
	'dxgpmo-expect: end' 'dxgpmo-vm: sh ./a.sh exit 0 (1.0 s)' \
	'dxgpmo-check: PASS a_step' \
	'[ 2.0] Oops: int3: 0000 [#1] SMP NOPTI' \
	'[ 2.0] CPU: 1 UID: 0 PID: 7 Comm: sh' \
	'[ 2.0] RIP: 0010:f+0x1/0x20 [m]' '[ 2.0] Code: cc cc' \
	'[ 2.0] RSP: 0018:ffffc900' '[ 2.0] Call Trace:' '[ 2.0]  <TASK>' \
	'[ 2.0]  g+0x10/0x40 [m]' '[ 2.0]  h+0x2/0x8' '[ 2.0]  </TASK>' \
	'[ 2.0] Modules linked in: m' '[ 2.0] ---[ end trace 0 ]---' \
	'[ 2.0]  after+0x1/0x2' > "$tmp/oops.log"
oops_digest "$tmp/oops.log" > "$tmp/digest"
printf '%s\n' 'running: dxgpmo-check: PASS a_step' \
	'[ 2.0] Oops: int3: 0000 [#1] SMP NOPTI' \
	'[ 2.0] RIP: 0010:f+0x1/0x20 [m]' '[ 2.0] Code: cc cc' \
	'[ 2.0]  g+0x10/0x40 [m]' '[ 2.0]  h+0x2/0x8' \
	'[ 2.0] Modules linked in: m' > "$tmp/want"
cmp -s "$tmp/want" "$tmp/digest"
ok=$?
[ "$ok" -eq 0 ] || diff "$tmp/want" "$tmp/digest"
result "$ok" oops_digest_shows_where_and_how

# make bench's summary (bench-summary.sh) counts every row of a target:
# a write-combined create row as the worst against the heap, the VFIO
# row at its size, the dirty period with 2 MiB pages at the largest size
# (not the worst), and says which targets are missed.
k=6.12.95+deb12-amd64
row() {
	printf '{"scenario":"%s","what":"%s","size":%s,"seconds":1,"baseline":"%s","baseline_seconds":1,"ratio":%s}\n' \
		"$@"
}
{
	row create 'create+destroy (cached)' 1048576 'dma-heap system alloc' 0.98
	row create 'create+destroy (wc)' 4096 'dma-heap system alloc' 1.07
	row adl 'ALLOCATE+FREE_ADL edu0' 4096 'VFIO type1 MAP+UNMAP' 0.90
	row dirty 'START+1/16 writes+query (2 MiB pages)' 1073741824 \
		'soft-dirty anon 1/16' 0.31
	row dirty 'START+1/16 writes+query (2 MiB pages)' 2097152 \
		'soft-dirty anon 1/16' 0.90
	row dirty 'START+1/16 writes+query' 1073741824 \
		'soft-dirty anon 1/16' 1.40
} > "$tmp/bench-$k.json"
"$top/scripts/bench-summary.sh" "$tmp/bench-$k.json" > "$tmp/summary"
grep -q '^create vs system dma-heap, every size  *6.12[^ ]*  *1.07x  *4 KiB  *<=1.00 missed$' "$tmp/summary" &&
	grep -q '^ALLOCATE+FREE_ADL vs VFIO type1  *6.12[^ ]*  *0.90x  *4 KiB  *<=1.00 met$' "$tmp/summary" &&
	grep -q '^dirty period, 2 MiB pages vs soft-dirty huge  *6.12[^ ]*  *0.31x  *1024 MiB  *<=0.50 met$' "$tmp/summary" &&
	grep -q '^dirty period, 4 KiB pages vs soft-dirty huge  *6.12[^ ]*  *1.40x  *1024 MiB  *- (no target)$' "$tmp/summary"
ok=$?
[ "$ok" -eq 0 ] || cat "$tmp/summary"
result "$ok" bench_summary_counts_every_row

# dxgpmoctl monitor's reading of trace_pipe lines (trace_line.c), its
# filters and its text and JSON, against canned lines: the VM tests can
# only give it the tasks' names and values the module happens to make.
# A crash or a failing exit counts apart from the PASS lines before it.
if ${CC:-gcc} -O2 -Wall -Wextra -Werror -I"$top/userspace-tools" \
	-o "$tmp/trace_line_unit_test" "$top/selftests/trace_line_unit_test.c" \
	"$top/userspace-tools/trace_line.c" "$top/userspace-tools/json_print.c"
then
	timeout 60 "$tmp/trace_line_unit_test"
	result $? monitor_unit_test_exit
else
	result 1 monitor_unit_test_build
fi

exit "$status"
