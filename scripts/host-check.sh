#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Checks of the test harness's own host side, no VM: what make check
# needs of the host wherever the repository was cloned; and what of
# dxgpmoctl needs no module: monitor's parser, the OBJECT VERB grammar,
# the completion script, the answer to a missing module.
# One "host: PASS|FAIL name" line each, which make check counts.
set -u

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
[ $# -eq 0 ] || usage_error "no arguments"

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

# result_digest NAME: the digest made ($tmp/digest) is the one wanted
# ($tmp/want); the difference shown when it is not.
result_digest() {
	cmp -s "$tmp/want" "$tmp/digest"
	rd_ok=$?
	[ "$rd_ok" -eq 0 ] || diff "$tmp/want" "$tmp/digest"
	result "$rd_ok" "$1"
}

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
result_digest failure_digest_names_crash_and_assertion

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
result_digest oops_digest_shows_where_and_how

# A KCSAN report with a frame in one of our modules stays in the log
# whole, and fails the boot; one in the kernel's own code becomes one
# line that matches no bad line, but for another CPU's bad line inside
# it; one the log cuts off stays whole.  make coverage's counters, base64
# that may spell "Oops", are no kernel log.
printf '%s\r\n' '[ 1.0] ======' '[ 1.0] BUG: KCSAN: data-race in a / b' \
	'[ 1.0]  a+0x1/0x2' '[ 1.0] WARNING: CPU: 1 at m.c:3' \
	'[ 1.0]  b+0x1/0x2' '[ 1.0] ==================' \
	'between' '[ 2.0] BUG: KCSAN: data-race in c / d' \
	'[ 2.0]  c+0x1/0x2 [dxgpmo 0123abcd]' '[ 2.0] ==================' \
	'dxgpmo-gcov: begin' 'T29wcwOopsKASAN' 'dxgpmo-gcov: end' 'after' \
	'[ 3.0] BUG: KCSAN: data-race in e / f' '[ 3.0]  e+0x1/0x2' \
	> "$tmp/kcsan.log"
unexpected_log "$tmp/kcsan.log" | tr -d '\r' > "$tmp/digest"
printf '%s\n' '[ 1.0] ======' 'kcsan: not ours: data-race in a / b' \
	'[ 1.0] WARNING: CPU: 1 at m.c:3' \
	'between' '[ 2.0] BUG: KCSAN: data-race in c / d' \
	'[ 2.0]  c+0x1/0x2 [dxgpmo 0123abcd]' '[ 2.0] ==================' \
	'after' '[ 3.0] BUG: KCSAN: data-race in e / f' '[ 3.0]  e+0x1/0x2' \
	> "$tmp/want"
result_digest kcsan_reports_in_our_modules_only

# vm_wait (vm-lib.sh) takes a status file that exists but is still
# empty, as "echo ok > FILE" leaves it for a moment, for not yet written:
# read as a failure, it once cost make check a kernel's boots.
: > "$tmp/status"
(sleep 1; echo ok > "$tmp/status") &
# shellcheck disable=SC2016
sh -c '. "$1/scripts/vm-lib.sh" && vm_wait "$2"' "$0" "$top" "$tmp/status"
result $? vm_wait_waits_for_the_word
wait

# make deps fetches the arm64 guest's busybox with apt-get download and
# extracts it (lib/deb-unpack.sh): a package named to apt, and its files
# in place.  Here apt is a stand-in that has one package and, as apt-get
# download does, fails when it is given no package name.
mkdir -p "$tmp/bb-pkg/DEBIAN" "$tmp/bb-pkg/bin" "$tmp/bb-debs" "$tmp/bb-cache"
printf '%s\n' 'Package: busybox-static' 'Version: 1' 'Architecture: all' \
	'Maintainer: host-check <root@localhost>' 'Description: stand-in' \
	> "$tmp/bb-pkg/DEBIAN/control"
printf '#!/bin/sh\n' > "$tmp/bb-pkg/bin/busybox"
chmod 0755 "$tmp/bb-pkg/bin/busybox"
dpkg-deb -Zgzip --build "$tmp/bb-pkg" "$tmp/bb-debs/busybox-static.deb" \
	> /dev/null
(
	# shellcheck source=lib/deb-unpack.sh
	. "$top/scripts/lib/deb-unpack.sh"
	arm64_cache=$tmp/bb-cache
	apt_arm64() {
		shift
		while [ "$1" != download ]; do shift; done
		shift
		[ $# -gt 0 ] || { echo "E: Handler silently failed" >&2; return 100; }
		for pkg; do
			cp "$tmp/bb-debs/${pkg%%/*}.deb" . || return 100
		done
	}
	arm64_fetch_files "$tmp/bb-cache/busybox" busybox-static/bookworm
) && [ -x "$tmp/bb-cache/busybox/bin/busybox" ]
result $? deps_fetches_the_arm64_busybox

# make bench's summary (bench-summary.sh) counts every row of a target:
# a write-combined create row as the worst against the heap, the VFIO
# row at its size, the dirty period with 2 MiB pages at the largest size
# (not the worst), and says which targets are missed.  These rows have no
# spread, as an older dxgpmo-bench wrote them: met or missed.
k=6.12.95+deb12-amd64
# row SCENARIO WHAT SIZE BASELINE RATIO [SPREAD]: a JSON line
row() {
	printf '{"scenario":"%s","what":"%s","size":%s,"seconds":1,"baseline":"%s","baseline_seconds":1,"ratio":%s%s}\n' \
		"$1" "$2" "$3" "$4" "$5" "${6:+,\"spread\":$6,\"pairs\":5}"
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
grep -q '^create vs system dma-heap, every size  *6.12[^ ]*  *1.07x  *-  *4 KiB  *<=1.00 missed$' "$tmp/summary" &&
	grep -q '^ALLOCATE+FREE_ADL vs VFIO type1, every size  *6.12[^ ]*  *0.90x  *-  *4 KiB  *<=1.00 met$' "$tmp/summary" &&
	grep -q '^dirty period, 2 MiB pages vs soft-dirty huge  *6.12[^ ]*  *0.31x  *-  *1024 MiB  *<=0.50 met$' "$tmp/summary" &&
	grep -q '^dirty period, 4 KiB pages vs soft-dirty huge  *6.12[^ ]*  *1.40x  *-  *1024 MiB  *- (no target)$' "$tmp/summary"
ok=$?
[ "$ok" -eq 0 ] || cat "$tmp/summary"
result "$ok" bench_summary_counts_every_row

# Its verdicts on rows of pairs: met and missed where the worst row's
# spread is narrower than its distance to the goal, "within noise" where
# it is wider, "no rows" for a target nothing measured; the goal of a
# target by size (VFIO from 64 KiB), by adapter (virtual's ADL) and by
# kernel (the dirty period on 6.1, which has no PMD PFN maps).
for k in 6.1.0-41-amd64 7.3.4+bpo-amd64; do
	{
		row create 'create+destroy (wc)' 4096 'dma-heap system alloc' \
			0.95 0.02
		row adl 'ALLOCATE+FREE_ADL edu0' 65536 'VFIO type1 MAP+UNMAP' \
			0.85 0.02
		row create 'destroy (non-cached, pooled)' 65536 \
			'destroy (wc, pooled)' 2.10 0.30
		printf '{"scenario":"adl","what":"ADL in-module virtual0 (1 run)","size":65536,"seconds":1,"baseline":"sgtable+array (floor)","baseline_seconds":1,"ratio":1.90,"spread":0.05,"pairs":5,"adapter":"virtual0"}\n'
		row dirty 'START+1/16 writes+query (2 MiB pages)' 1073741824 \
			'soft-dirty anon 1/16' 0.80 0.10
	} > "$tmp/bench-$k.json"
done
"$top/scripts/bench-summary.sh" "$tmp/bench-6.1.0-41-amd64.json" \
	"$tmp/bench-7.3.4+bpo-amd64.json" > "$tmp/summary"
grep -q '^create vs system dma-heap, every size  *6.1.0[^ ]*  *0.95x  *+-0.02  *4 KiB  *<=1.00 met$' "$tmp/summary" &&
	grep -q '^ALLOCATE+FREE_ADL vs VFIO type1, 64 KiB+  *6.1.0[^ ]*  *0.85x  *+-0.02  *64 KiB  *<=0.80 missed$' "$tmp/summary" &&
	grep -q '^ALLOCATE+FREE_ADL vs VFIO type1, every size  *6.1.0[^ ]*  *0.85x  *+-0.02  *64 KiB  *<=1.00 met$' "$tmp/summary" &&
	grep -q '^destroy pooled, non-cached vs wc  *6.1.0[^ ]*  *2.10x  *+-0.30  *64 KiB  *<=2.00 within noise$' "$tmp/summary" &&
	grep -q '^in-module ADL vs floor, 64 KiB+, virtual  *6.1.0[^ ]*  *1.90x  *+-0.05  *64 KiB  *<=2.00 met$' "$tmp/summary" &&
	grep -q '^KMAP_RW write, non-cached vs wc  *6.1.0[^ ]*  *-  *-  *-  *<=2.00 no rows' "$tmp/summary" &&
	grep -q '^dirty period, 2 MiB pages vs soft-dirty huge  *6.1.0[^ ]*  *0.80x  *+-0.10  *1024 MiB  *<=1.00 met$' "$tmp/summary" &&
	grep -q '^dirty period, 2 MiB pages vs soft-dirty huge  *7.3.4[^ ]*  *0.80x  *+-0.10  *1024 MiB  *<=0.50 missed$' "$tmp/summary"
ok=$?
[ "$ok" -eq 0 ] || cat "$tmp/summary"
result "$ok" bench_summary_verdicts

# Every program of scripts/ answers -h and --help with the comment at its
# top and a call it cannot parse with its usage (lib/usage.sh): each one
# calls usage_help (screen-agent.py: its own); the three a developer
# calls by hand most, with no arguments, print their usage and exit 2
# instead of stopping on the first parameter that is not set.
ok=0
for f in "$top"/scripts/*.sh "$top"/scripts/*.py; do
	[ "$(head -c 2 "$f")" = '#!' ] || continue
	grep -q "^usage_help \"\$@\"$\|in ('-h', '--help')" "$f" ||
		{ echo "host: ${f#"$top"/} has no --help"; ok=1; }
done
for f in mkinitramfs.sh vm-boot.sh run.sh; do
	{ "$top/scripts/$f" --help > "$tmp/help" 2>&1 &&
		grep -q '^usage: ' "$tmp/help"; } ||
		{ echo "host: scripts/$f --help failed"; ok=1; }
	"$top/scripts/$f" > "$tmp/usage" 2>&1
	{ [ $? -eq 2 ] && grep -q '^usage: ' "$tmp/usage" &&
		! grep -q 'parameter not set' "$tmp/usage"; } ||
		{ cat "$tmp/usage"; ok=1; }
done
result "$ok" scripts_answer_help_and_print_usage

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

# dxgpmoctl's grammar, built here as the Makefile builds it: what needs
# no module.  DXGPMO_DEVICE points at a node that is not there, so a
# command that parses reaches the open and says the module is not loaded.
ctl=$tmp/dxgpmoctl
# shellcheck disable=SC2046 # pkg-config's words
if ${CC:-gcc} -O2 -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare \
	-I"$top/uapi" -I"$top/userspace-tools" \
	$(pkg-config --cflags libdrm 2>/dev/null) -o "$ctl" \
	"$top"/userspace-tools/dxgpmoctl*.c "$top/userspace-tools/json_print.c" \
	"$top/userspace-tools/trace_line.c" "$top/userspace-tools/libdxgpmo.c" \
	"$top/userspace-tools/libdxgpmo_pci.c" \
	$(pkg-config --libs libdrm 2>/dev/null || echo -ldrm)
then
	export DXGPMO_DEVICE="$tmp/no-dxgpmo"
	hint="is the module loaded? (modprobe dxgpmo)"
	# ctl_is NAME STATUS LINE ARGS...: status and the one line printed
	ctl_is() {
		c_name=$1 c_status=$2 c_line=$3
		shift 3
		"$ctl" "$@" > "$tmp/ctl.out" 2>&1 < /dev/null
		c_got=$?
		[ "$c_got" -eq "$c_status" ] && [ "$(cat "$tmp/ctl.out")" = "$c_line" ]
		c_ok=$?
		[ "$c_ok" -eq 0 ] || { echo "status $c_got:"; cat "$tmp/ctl.out"; }
		result "$c_ok" "dxgpmoctl_$c_name"
	}
	ctl_is one_letter_abbreviations 1 \
		"pmo create: ENOENT — no $DXGPMO_DEVICE: $hint" p c 4K
	ctl_is unique_prefixes 1 \
		"adapter list: ENOENT — no $DXGPMO_DEVICE: $hint" adap li
	ctl_is default_verb 1 \
		"adapter list: ENOENT — no $DXGPMO_DEVICE: $hint" adapter
	ctl_is ambiguous_object 2 \
		"dxgpmoctl: EINVAL — 'ad' is ambiguous: adapter, adl" ad l
	ctl_is ambiguous_verb 2 \
		"basis: EINVAL — 'st' is ambiguous: start, stop" basis st 1
	ctl_is unknown_object 2 \
		"nope: EINVAL — unknown object (see 'dxgpmoctl help')" nope
	ctl_is old_verb_hint 2 \
		"dxgpmoctl: EINVAL — 'free-adl' is now 'adl free'" free-adl 1
	ctl_is old_object_form_hint 2 \
		"adl: EINVAL — unknown verb '1' (see 'dxgpmoctl adl help'); 'adl AMO LENGTH' is now 'adl allocate AMO LENGTH'" \
		adl 1 64K
	ctl_is old_dma_form_hint 2 \
		"dma: EINVAL — unknown verb 'edu0' (see 'dxgpmoctl dma help'); 'dma ADAPTER ADDRESS write TEXT' is now 'dma write ADAPTER ADDRESS TEXT'" \
		dma edu0 0x1000 write x
	ok=0
	for old in adapters bind unbind create open close destroy free-adl \
		map unmap view-write view-read start stop query destroy-basis \
		segment-write export close-dmabuf; do
		"$ctl" "$old" 1 > "$tmp/ctl.out" 2>&1
		# shellcheck disable=SC2015 # either failing reports
		[ $? -eq 2 ] && grep -q "^dxgpmoctl: EINVAL — '$old' is now '[a-z]* [a-z]*'$" "$tmp/ctl.out" ||
			{ cat "$tmp/ctl.out"; ok=1; }
	done
	result "$ok" dxgpmoctl_every_old_verb_hint
	# help: the objects; OBJECT help: its verbs, none of another's
	"$ctl" help > "$tmp/ctl.out" 2>&1 &&
		[ "$(grep -Ec '^  (adapter|pmo|adl|view|dma|basis|segment|dmabuf|stats|monitor)  ' "$tmp/ctl.out")" -eq 10 ]
	result $? dxgpmoctl_help_lists_objects
	"$ctl" basis help > "$tmp/ctl.out" 2>&1 &&
		[ "$(grep -c '^  basis ' "$tmp/ctl.out")" -eq 5 ] &&
		[ "$(grep -c '^  ' "$tmp/ctl.out")" -eq 5 ] &&
		"$ctl" monitor help | grep -q '^  monitor .*\[event NAME...\]$'
	result $? dxgpmoctl_object_help
	# echo's text has its $names replaced, but inside '...'; an unknown
	# name stops the batch at its line
	# shellcheck disable=SC2016 # $nope is the batch's
	printf '%s\n' "echo a '\$x' \$5 \"b\"" 'echo $nope' 'echo not reached' |
		"$ctl" > "$tmp/ctl.out" 2>&1
	[ $? -eq 2 ] && [ "$(cat "$tmp/ctl.out")" = "a '\$x' \$5 \"b\"
dxgpmoctl: EINVAL — no variable \$nope: no command stored it
dxgpmoctl: stdin:2: stopped" ]
	result $? dxgpmoctl_batch_variables
	# libdxgk's examples answer a missing module as dxgpmoctl does
	if [ ! -e /dev/dxgpmo ] && ${CC:-gcc} -O2 -Wall -I"$top/uapi" \
		-I"$top/userspace-tools" -o "$tmp/dxgk-mobile-gpu" \
		"$top/userspace-tools/examples/dxgk-mobile-gpu.c" \
		"$top"/userspace-tools/libdxgk_session.c \
		"$top"/userspace-tools/libdxgk_callbacks.c \
		"$top"/userspace-tools/libdxgk_dirty.c \
		"$top"/userspace-tools/libdxgk_migration.c \
		"$top"/userspace-tools/libdxgk_adapter.c \
		"$top"/userspace-tools/libdxgk_status.c -lpthread; then
		! "$tmp/dxgk-mobile-gpu" > /dev/null 2> "$tmp/ex.err" &&
			[ "$(cat "$tmp/ex.err")" = "no /dev/dxgpmo: $hint" ]
		result $? libdxgk_example_modprobe_hint
	fi
	unset DXGPMO_DEVICE

	# The completion script, printed from the same table: sourced in
	# bash, it completes objects, verbs (by the same prefixes), options,
	# their words, and adapter names from "dxgpmoctl adapter list".
	mkdir -p "$tmp/bin"
	"$ctl" --bash-completion > "$tmp/completion"
	printf '%s\n' '#!/bin/sh' \
		'[ "$*" = "adapter list" ] || exit 2' \
		'echo "ID  NAME       PCI"' 'echo "1   edu0       0000:00:04.0"' \
		'echo "2   virtual0   -"' > "$tmp/bin/dxgpmoctl"
	chmod +x "$tmp/bin/dxgpmoctl"
	"$ctl" --commands > "$tmp/commands"
	# shellcheck disable=SC2016 # expanded by that bash
	PATH=$tmp/bin:$PATH bash -c '
		. "$1"
		complete -p dxgpmoctl > /dev/null || exit 1
		is() {	# is WANT WORD...: COMPREPLY for the words typed
			want=$1
			shift
			COMP_WORDS=(dxgpmoctl "$@")
			COMP_CWORD=$#
			_dxgpmoctl
			[ "${COMPREPLY[*]}" = "$want" ] && return
			echo "dxgpmoctl $*: \"${COMPREPLY[*]}\", not \"$want\""
			return 1
		}
		ok=0
		is pmo p || ok=1
		is "create open close destroy show help" pmo "" || ok=1
		is "create close" p c || ok=1
		is "--cache --context" p c --c || ok=1
		is "mdl contiguous section io_space" pmo create --type "" || ok=1
		is "ro rw" pmo cr --protection "" || ok=1
		is "adapter adl" ad || ok=1
		is "start stop" b st || ok=1
		is "edu0 virtual0" adapter show "" || ok=1
		is "edu0" dma write e || ok=1
		is "virtual0" pmo create --adapter v || ok=1
		is "adapter pid file object event" monitor "" || ok=1
		is "edu0 virtual0" -j monitor adapter "" || ok=1
		# every OBJECT VERB of the table, and no other
		for o in $_dxgpmoctl_objects; do
			for v in $(_dxgpmoctl_verbs "$o"); do
				echo "$o $v"
			done
			[ -n "$(_dxgpmoctl_verbs "$o")" ] || echo "$o"
		done | cmp -s - "$2" || { echo "verbs differ from --commands"; ok=1; }
		exit $ok' sh "$tmp/completion" "$tmp/commands"
	result $? dxgpmoctl_completion
	if command -v shellcheck > /dev/null; then
		shellcheck -s bash "$tmp/completion"
		result $? dxgpmoctl_completion_shellcheck
	fi
else
	result 1 dxgpmoctl_build
fi

exit "$status"
