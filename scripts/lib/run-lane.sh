# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by make check (check.sh): make run's lane.  make run boots the
# first amd64 kernel tested twice, with the test build make check made
# for it (DXGPMO_RUN_MODULES), and runs selftests/dxgpmo_run_test.sh,
# which uses strace, gdb and dxgpmoctl in the guest and exits with its
# first argument: 0, then 3.  Both boots took 21 s on the 2-core
# machine otherwise idle, 55 s at a load of 9; a fresh tree makes the
# image first (7 s of CPU).  One "run: PASS|FAIL what" line each, counted
# with the host's.
# check.sh sets top, build and amd64_kernels, and sources results.sh
# (BAD_LOG, unexpected_log), before it calls this.
# shellcheck disable=SC2154

# run_result NAME CMD...: "run: PASS NAME" when CMD succeeds, else FAIL.
run_result() {
	rr_name=$1
	shift
	if "$@"; then
		echo "run: PASS $rr_name"
	else
		echo "run: FAIL $rr_name"
	fi
}

# run_failed_with_3 STATUS OUTPUT: make run's STATUS is a failure, and
# run.sh said the program exited 3.
run_failed_with_3() {
	[ "$1" -ne 0 ] && grep -q ' exited 3 in a boot' "$2"
}

# run_logs_clean LOG...: none of the guest logs has a bad kernel line.
run_logs_clean() {
	! cat "$@" | grep -qE "$BAD_LOG"
}

# run_lane: the two boots, their lines in build/run.log.
run_lane() {
	: > "$build/run.log"
	rl_kver=$(echo "$amd64_kernels" | head -n 1)
	[ -z "${DXGPMO_KERNEL_BUILD:-}" ] && [ -n "$rl_kver" ] || return 0
	rl_out=$build/run-lane
	rm -rf "$rl_out"
	mkdir -p "$rl_out"
	if ! vm_wait "$build/$rl_kver/build.status"; then
		echo "run: FAIL make run: no module built for $rl_kver" >> "$build/run.log"
		return 0
	fi
	rl_start=$(date +%s)
	{
		DXGPMO_RUN_MODULES=$build/$rl_kver make -s -C "$top" run \
			KERNEL="$rl_kver" PROG=selftests/dxgpmo_run_test.sh \
			ARGS="0 'a  b'" > "$rl_out/pass.out" 2>&1 &&
			rl_pass=0 || rl_pass=$?
		rl_log=$build/run/$rl_kver/run.log
		cp "$rl_log" "$rl_out/pass.log" 2>/dev/null || true
		DXGPMO_RUN_MODULES=$build/$rl_kver make -s -C "$top" run \
			KERNEL="$rl_kver" PROG=selftests/dxgpmo_run_test.sh \
			ARGS=3 > "$rl_out/fail.out" 2>&1 && rl_fail=0 || rl_fail=$?
		cp "$rl_log" "$rl_out/fail.log" 2>/dev/null || true
		echo "run: make run on $rl_kver, 2 boots in $(($(date +%s) - rl_start)) s [output: ${rl_out#"$top"/}/]"
		run_result "a program that exits 0: make run exits 0" \
			[ "$rl_pass" -eq 0 ]
		run_result "its output shown, its arguments as the shell split them" \
			grep -qxF 'run-test: args [0 a  b]' "$rl_out/pass.out"
		run_result "strace in the guest" \
			grep -q '^run-test: strace counted' "$rl_out/pass.out"
		run_result "gdb in the guest" \
			grep -q '^run-test: GNU gdb' "$rl_out/pass.out"
		run_result "the module loaded and the tree's dxgpmoctl on PATH" \
			grep -q '^run-test: dxgpmoctl sees edu0' "$rl_out/pass.out"
		run_result "a program that exits 3: make run fails, run.sh exits 3" \
			run_failed_with_3 "$rl_fail" "$rl_out/fail.out"
		run_result "the failing program's output shown" \
			grep -qxF 'run-test: args [3]' "$rl_out/fail.out"
		run_result "no bad kernel log line in either boot" \
			run_logs_clean "$rl_out/pass.log" "$rl_out/fail.log"
	} >> "$build/run.log" 2>&1
	# What failed, to read without the files.
	grep -q '^run: FAIL' "$build/run.log" || return 0
	tail -n 20 "$rl_out/pass.out" "$rl_out/fail.out" >> "$build/run.log"
}
