# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by make check (check.sh) and by host-check.sh: what a result is.
# The selftests' TAP and "# Totals:" lines, the "NAME: PASS|FAIL|SKIP"
# lines of the host checks and the guests, the kernel log lines that fail
# a boot, the counters they add to, the digest of what failed that is
# repeated before the last line, and that line.  One place, so that what
# make check counts as passed or failed is read and changed in one file,
# and host-check.sh can test the digest without a VM.
# check.sh sets top, build, tests_boots, kver and the k_* baseline, and
# sources vm-lib.sh, before it calls these.
# shellcheck disable=SC2154

# failure_digest LOG: each failed selftest or check of a boot, after the
# harness lines its test printed (the failed assertion, the test's own
# account), at most 6 of them; and each test program that ended other
# than as a kselftest does (0 passed, 1 failed, 4 skipped): a crash leaves
# no "not ok" line to count.
failure_digest() {
	awk '{ sub(/\r$/, "") }
	     /^dxgpmo-vm: / { n = 0 }
	     /^(#  RUN |TAP version|ok )/ && !/# XPASS/ { n = 0; next }
	     /^dxgpmo-vm: .* exit [0-9]+ \(/ {
		status = $0
		sub(/.* exit /, "", status)
		sub(/ .*/, "", status)
		if (status != 0 && status != 1 && status != 4)
			print $0 ": ended without a result"
		next
	     }
	     /^# / && !/^#  *(OK|FAIL) / { keep[n++ % 6] = $0; next }
	     /^not ok |^ok .*# XPASS/ {
		for (i = (n > 6 ? n - 6 : 0); i < n; i++) print "  " keep[i % 6]
		print; n = 0; next
	     }
	     /^dxgpmo-check: FAIL/ { print }' "$1"
}

# unfinished_program LOG: for a guest that did not finish, what the test
# program it was running had reported when it was stopped: "PASS FAIL
# SKIP" from its "ok" and "not ok" lines (it printed no totals), then the
# test it was in, if one had started and not reported.  Nothing when the
# last program had finished.
unfinished_program() {
	awk '{ sub(/\r$/, "") }
	     /^dxgpmo-vm: (job start|.* exit [0-9]+ \()/ {
		p = f = s = 0; running = ""; open = 1; next
	     }
	     /^# Totals:/ { open = 0; next }
	     /^#  RUN / { running = $3; next }
	     /^not ok [0-9]+ / { f++; running = ""; next }
	     /^ok [0-9]+ .*# SKIP/ { s++; running = ""; next }
	     /^ok [0-9]+ / { p++; running = ""; next }
	     END { if (open) print p, f, s, running }' "$1"
}

# results_init: the counters at zero and an empty failure list.
results_init() {
	passed=0 failed=0 skipped=0
	# Every failure, with the lines that explain it, repeated at the
	# end: CI shows only the last lines of a run.
	failures=$build/failures.txt
	: > "$failures"
}

# count_failure MESSAGE: one failure no log line counts, said now and in
# the list at the end.
count_failure() {
	echo "$1" | tee -a "$failures"
	failed=$((failed + 1))
}

# count_lines NAME: the "NAME: PASS|FAIL|SKIP" lines of build/NAME.log,
# shown, counted, and the failures listed at the end.
count_lines() {
	cat "$build/$1.log"
	passed=$((passed + $(grep -c "^$1: PASS" "$build/$1.log" || true)))
	failed=$((failed + $(grep -c "^$1: FAIL" "$build/$1.log" || true)))
	skipped=$((skipped + $(grep -c "^$1: SKIP" "$build/$1.log" || true)))
	grep "^$1: FAIL" "$build/$1.log" >> "$failures" || true
}

# Kernel log lines that mean something went wrong, wherever they come from.
# An IOMMU fault: VT-d's DMAR line, AMD-Vi's IO_PAGE_FAULT or virtio-iommu's
# fault on x86, an SMMUv3 event on arm64.
BAD_LOG='(BUG:|BUG at|WARNING:|Oops|DMAR:.*[Ff]ault|IO_PAGE_FAULT|virtio_iommu.*fault from EP|arm-smmu-v3.*event|KASAN|general protection|Call Trace:)'

# Drop what tests bracketed with "dxgpmo-expect: begin/end" (provoked on
# purpose, and checked by the test itself), make coverage's counters
# (base64, where "Oops" or "KASAN" turn up by chance), and the data races
# KCSAN (make check-kcsan) reports in the kernel's own code: one line
# each, "kcsan: not ours: ...".
unexpected_log() {
	awk '/dxgpmo-expect: begin/ || /^dxgpmo-gcov: begin/ { skip = 1 }
	     !skip { print }
	     /dxgpmo-expect: end/ || /^dxgpmo-gcov: end/ { skip = 0 }' "$1" |
		kcsan_ours_only
}

# A KCSAN report is ours when a stack in it runs in one of the tree's
# modules ("[name]", or "[name buildid]"); the others are the kernel's,
# which a data race in our code cannot hide: each report names its own
# pair of accesses.  A bad line of another CPU's that lands inside one
# stays, and so does a report the log cuts off.  Brackets, not
# backslashes: awk -v takes escapes out of the pattern in gawk.
OUR_MODULES='[[](dxgpmo|dxgpmo_sample_edu|dxgkrnl_sample_edu)[] ]'
kcsan_ours_only() {
	awk -v ours="$OUR_MODULES" -v bad="$BAD_LOG" '
	     function flush() {
		if (report == "") return
		if (mine) printf "%s", report
		else printf "kcsan: not ours: %s\n%s", title, others
		report = ""; others = ""
	     }
	     /BUG: KCSAN: / {
		flush(); title = $0; sub(/^.*BUG: KCSAN: /, "", title)
		report = $0 "\n"; mine = 0; next
	     }
	     report != "" && /==========/ { report = report $0 "\n"; flush(); next }
	     report != "" {
		report = report $0 "\n"
		if ($0 ~ ours) mine = 1
		else if ($0 ~ bad) others = others $0 "\n"
		next
	     }
	     { print }
	     END { if (report != "") printf "%s", report }'
}

# oops_digest LOG: the first kernel report that was not provoked on
# purpose, as CI's short tail needs it to be read without the log: the
# last test line before it (what was running), the report's own line,
# RIP and its code bytes, the modules, and up to 16 call-trace frames.
oops_digest() {
	unexpected_log "$1" | awk '{ sub(/\r$/, "") }
	     !inside && /^(dxgpmo-vm: |dxgpmo-check: |#  RUN |ok |not ok )/ {
		last = $0; next
	     }
	     !inside && /(BUG:|BUG at|WARNING:|Oops|general protection|KASAN:)/ {
		inside = 1
		if (last != "") print "running: " last
		print; next
	     }
	     inside && /---\[ end trace/ { exit }
	     inside && /(RIP:|Code:|pc :|lr :|Modules linked in:)/ {
		print substr($0, 1, 300); next
	     }
	     inside && /^\[ *[0-9.]+\]  +[^ ]+\+0x[0-9a-f]+\/0x[0-9a-f]+/ {
		if (frames++ < 16) print
	     }'
}

# default_platform KVER: the IOMMU KVER boots with unless the matrix
# chooses another: emulated VT-d in strict mode, arm64's SMMUv3.
default_platform() {
	if [ "$(kernel_arch "$1")" = arm64 ]; then
		echo smmuv3
	else
		echo vtd-strict
	fi
}

# boot_count KVER NAME LABEL [screen]: the results of the boot_run of
# KVER's NAME, said as LABEL (KVER[platform]/boot), added to the counters.
boot_count() {
	kver=$1 name=$2 label=$3 screen=${4:-}
	out=$build/$kver
	log=$out/$name.log
	qemu_status=$(cat "$out/$name.status" 2>/dev/null || echo none)

	if [ "$qemu_status" = none ]; then
		cat "$out/$name.initramfs.log"
		count_failure "$label: its initramfs could not be made"
		return
	fi

	b_pass=0 b_fail=0 b_skip=0
	# shellcheck disable=SC2013
	for totals in $(sed -n 's/.*# Totals: pass:\([0-9]*\) fail:\([0-9]*\) xfail:\([0-9]*\) xpass:\([0-9]*\) skip:\([0-9]*\) error:\([0-9]*\).*/\1:\2:\3:\4:\5:\6/p' "$log"); do
		IFS=: read -r p f xf xp s e <<TOT
$totals
TOT
		b_pass=$((b_pass + p + xf))
		b_fail=$((b_fail + f + xp + e))
		b_skip=$((b_skip + s))
	done
	b_pass=$((b_pass + $(grep -c '^dxgpmo-check: PASS' "$log" || true)))
	b_fail=$((b_fail + $(grep -c '^dxgpmo-check: FAIL' "$log" || true)))
	b_skip=$((b_skip + $(grep -c '^dxgpmo-check: SKIP' "$log" || true)))
	# A guest stopped by its timeout: the results of the program it was
	# running count too, one by one (it printed no totals), and the test
	# it was in is named.
	u_running=
	if ! grep -q '^dxgpmo-vm: job exit' "$log"; then
		read -r u_pass u_fail u_skip u_running <<UNFINISHED
$(unfinished_program "$log")
UNFINISHED
		b_pass=$((b_pass + ${u_pass:-0}))
		b_fail=$((b_fail + ${u_fail:-0}))
		b_skip=$((b_skip + ${u_skip:-0}))
	fi
	# The host's own verdicts on what the VM's display showed.
	agent_log=$out/$name.screen/agent.log
	if [ -n "$screen" ] && [ -f "$agent_log" ]; then
		b_pass=$((b_pass + $(grep -c '^dxgpmo-screen: PASS' "$agent_log" || true)))
		b_fail=$((b_fail + $(grep -c '^dxgpmo-screen: FAIL' "$agent_log" || true)))
		grep '^dxgpmo-screen: FAIL' "$agent_log" | tee -a "$failures" || true
	fi

	problems=
	if [ "$qemu_status" -ne 0 ]; then
		problems="$problems qemu-status-$qemu_status"
		tail -n 3 "${log%.log}.qemu.log" 2>/dev/null |
			sed "s|^|$label: qemu: |" >> "$failures"
	fi
	grep -q '^dxgpmo-vm: job exit' "$log" ||
		problems="$problems guest-did-not-finish${u_running:+-in-$u_running}"
	# Every boot runs kselftests but the packages' smoke boot.
	[ "$name" = deb-smoke ] || grep -q '# Totals:' "$log" ||
		problems="$problems no-selftest-totals"
	bad_lines=$(unexpected_log "$log" | grep -E "$BAD_LOG" || true)
	if [ -n "$bad_lines" ]; then
		problems="$problems kernel-log"
		echo "$bad_lines" | head -n 20
		oops=$(oops_digest "$log")
		[ -n "$oops" ] || oops=$(echo "$bad_lines" | head -n 5)
		echo "$oops" | sed "s|^|$label: |" >> "$failures"
	fi
	grep -E '^(not ok|dxgpmo-check: FAIL)' "$log" || true
	failure_digest "$log" > "$out/$name.failures"
	if grep -q ': ended without a result$' "$out/$name.failures"; then
		problems="$problems test-program-crashed"
	fi
	sed "s|^|$label: |" "$out/$name.failures" >> "$failures"
	[ -z "$problems" ] || echo "$label:$problems" >> "$failures"
	for p in $problems; do
		b_fail=$((b_fail + 1))
	done
	grep -E '^ok .*# SKIP' "$log" | sed 's/^/  skipped: /' || true
	grep '^dxgpmo-check: SKIP' "$log" | sed 's/^/  skipped: /' || true

	# Its time beside the limit it had (vm-boot.sh's timeout).
	b_time=
	if read -r b_seconds b_limit < "$out/$name.seconds" 2>/dev/null; then
		b_time=" in $b_seconds s of $b_limit s"
		[ $((b_seconds * 2)) -le "$b_limit" ] ||
			b_time="$b_time (over half its limit)"
	fi
	echo "$label: $b_pass passed, $b_fail failed, $b_skip skipped$b_time${problems:+ (}${problems# }${problems:+)} [log: ${log#"$top"/}]"
	passed=$((passed + b_pass))
	failed=$((failed + b_fail))
	skipped=$((skipped + b_skip))
}

# kunit_count KVER LABEL: the KUnit cases of KVER's tests boot, said as
# LABEL (KVER[platform]/kunit), added to the counters: when its test build
# has the suites (build_module leaves OUT/kunit; a kernel with KUnit, make
# check-debug's), the job's "dxgpmo-kunit: PASS|FAIL|SKIP suite.case"
# lines, one a case of module/kunit/suite.c's table, every one of which
# must have reported.
kunit_count() {
	log=$build/$1/tests.log
	k_pass=$(grep -c '^dxgpmo-kunit: PASS ' "$log" || true)
	k_fail=$(grep -c '^dxgpmo-kunit: FAIL ' "$log" || true)
	k_skip=$(grep -c '^dxgpmo-kunit: SKIP ' "$log" || true)
	grep -E '^dxgpmo-kunit(-ktap)?: (FAIL|SKIP|.*EXPECTATION|.*ASSERTION)' \
		"$log" | head -n 40 || true
	grep '^dxgpmo-kunit: FAIL' "$log" | sed "s|^|$2: |" >> "$failures" ||
		true
	k_cases=$((k_pass + k_fail + k_skip))
	k_registered=$(grep -c '^	KUNIT_CASE(' "$top/module/kunit/suite.c")
	k_problem=
	if [ "$k_cases" -lt "$k_registered" ]; then
		k_problem=" ($k_cases of $k_registered cases reported)"
		echo "$2:$k_problem" >> "$failures"
		k_fail=$((k_fail + 1))
	fi
	echo "$2: $k_pass passed, $k_fail failed, $k_skip skipped$k_problem"
	passed=$((passed + k_pass))
	failed=$((failed + k_fail))
	skipped=$((skipped + k_skip))
}

# kernel_results KVER: the counting of its build and its three boots.
# False when the module did not build (no boots to count).
kernel_results() {
	out=$build/$1
	if ! vm_wait "$out/build.status"; then
		cat "$out/build.log"
		count_failure "$1: module build failed or warned"
		return 1
	fi
	if [ -e "$out/sparse-not-run" ]; then
		echo "$1/sparse: skipped: the kernel's make dropped C=1: $(cat "$out/sparse-not-run")"
		skipped=$((skipped + 1))
	fi
	screen=
	[ "$(kernel_arch "$1")" = arm64 ] || screen=screen
	for name in $tests_boots fuzz; do
		boot_count "$1" "$name" "$1[$(default_platform "$1")]/$name" \
			"$([ "$name" = tests ] && echo "$screen")"
		[ "$name" != tests ] || [ ! -e "$out/kunit" ] ||
			kunit_count "$1" "$1[$(default_platform "$1")]/kunit"
	done
}

# bug_results KVER: its default build and its bug boot (the bug lane's),
# counted after every kernel's summary; nothing for a kernel whose test
# build failed (kernel_results counted that).
bug_results() {
	out=$build/$1
	[ "$(cat "$out/build.status" 2>/dev/null)" = ok ] || return 0
	# The default build (the bug boot's); its boot cannot be made without.
	if is_default_kernel "$1" &&
	   [ "$(cat "$out/default/build.status" 2>/dev/null)" != ok ]; then
		cat "$out/default/build.log" 2>/dev/null || true
		count_failure "$1: default module build failed or warned"
	fi
	boot_count "$1" bug "$1[$(default_platform "$1")]/bug"
}

# One line per kernel: what its build and its boots added, and the time
# (k_seconds, else since k_start).
kernel_summary() {
	echo "$kver: $((passed - k_passed)) passed, $((failed - k_failed)) failed, $((skipped - k_skipped)) skipped in ${k_seconds:-$(($(date +%s) - k_start))} s"
}

# results_report: what failed, then the last line; false when anything
# failed or nothing passed, the status of make check.
results_report() {
	if [ -s "$failures" ]; then
		echo "what failed (details in the logs named above):"
		# The host's lines first: a kernel's can be many.
		{
			grep -E '^(lint|host|libdxgk|dkms|deb|run):' "$failures" || true
			grep -vE '^(lint|host|libdxgk|dkms|deb|run):' "$failures" || true
		} | head -n 60
		lines=$(wc -l < "$failures")
		[ "$lines" -le 60 ] ||
			echo "($((lines - 60)) more lines in ${failures#"$top"/})"
	fi
	if [ "$skipped" -gt 0 ]; then
		echo "$passed passed, $failed failed, $skipped skipped"
	else
		echo "$passed passed, $failed failed"
	fi
	[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
}
