# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by make check (check.sh): the checks that need no VM, make lint,
# host-check.sh and libdxgk-check.sh, started in the
# background at the lowest priority and counted at the end, apart from
# the boots so that what runs on the host, and when it is counted, is in
# one place.
# check.sh sets top, build and kernel_arches, and sources results.sh,
# before it calls these.
# shellcheck disable=SC2154

# checkpatch and kernel-doc, the harness's own host checks and libdxgk's
# host checks (its header as C11 and C++17 with -Werror, its
# dependencies, its unit test) need no VM: they run on the host while the
# first kernel builds and boots (its guest waits on edu's timers much of
# the time), and are counted at the end.
# make dkms-check is not among them: the packages' lane (deb-check.sh)
# runs dkms.conf's build for 6.1 and the newest kernel, and each kernel's
# compile of the same sources is its test build; a third DKMS build, for
# 6.12, cost make check a full module build with debug info (about 55 s
# of CPU) for the one thing neither covers, 6.12's Kbuild under DKMS.
# host_checks_start: those, in the background (host_checks, its pid).
host_checks_start() {
	rm -f "$build/lint.status"
	(
		# Below the guests (TCG threads) in the scheduler's eyes.
		renice -n 19 -p "$(exec sh -c 'echo $PPID')" > /dev/null 2>&1 ||
			true
		if make -s -j"$(nproc)" -O lint > "$build/lint.log" 2>&1; then
			echo pass > "$build/lint.status"
		else
			echo fail > "$build/lint.status"
		fi
		# A script's failing status counts too when no FAIL line says
		# why.
		for check in host libdxgk; do
			"$top/scripts/$check-check.sh" > "$build/$check.log" 2>&1 || {
				rc=$?
				grep -q "^$check: FAIL" "$build/$check.log" ||
					echo "$check: FAIL $check-check.sh exited $rc" \
						>> "$build/$check.log"
			}
		done
	) &
	host_checks=$!
}

# host_checks_count: once they are done, their lines, counted.
host_checks_count() {
	wait "$host_checks" || true
	if [ "$(cat "$build/lint.status" 2>/dev/null)" = pass ]; then
		echo "lint: checkpatch --strict, kernel-doc, shellcheck, cppcheck, clang's analyzer and coccicheck clean"
		passed=$((passed + 1))
	else
		cat "$build/lint.log"
		count_failure "lint: checkpatch --strict, kernel-doc, shellcheck, cppcheck, clang's analyzer or coccicheck found problems"
		head -n 20 "$build/lint.log" | sed 's/^/lint: /' >> "$failures"
	fi
	count_lines host
	count_lines libdxgk
	# A script that died before saying anything still fails.
	grep -q '^libdxgk: ' "$build/libdxgk.log" ||
		count_failure "libdxgk: libdxgk-check.sh said nothing"
}
