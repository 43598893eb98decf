#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dxgpmo-bench's own checks, at its smallest sizes (--max-size): what it
# prints as a baseline did the work it stands for.  The dirty scenario:
# every soft-dirty row is of runs that saw every page they wrote, and
# where the kernel keeps no soft-dirty bits (no CONFIG_MEM_SOFT_DIRTY:
# arm64) the scenario says so and prints none, as it does for a peer the
# kernel lacks: clear_refs there only walks the page tables, a tracker
# that tracks nothing.  One "dxgpmo-check: PASS|FAIL name" line a check.
# Runs from the test VM's job (the bench beside it), or with make run
# (the bench on PATH).

bench=${DXGPMO_BENCH:-./dxgpmo-bench}
[ -x "$bench" ] || bench=dxgpmo-bench
out=/tmp/dxgpmo-bench.out
err=/tmp/dxgpmo-bench.err

result() {
	if [ "$2" = 0 ]; then
		echo "dxgpmo-check: PASS bench_$1"
	else
		echo "dxgpmo-check: FAIL bench_$1"
	fi
}

"$bench" --only dirty --max-size 256K > "$out" 2> "$err"
status=$?
cat "$out" "$err"
[ "$status" = 0 ] && grep -q '^dirty .*tracked writes+query' "$out"
result dirty_rows $?
! grep -q '^soft-dirty: ' "$err"
result dirty_baseline_saw_its_writes $?
if grep -q '^# dirty vs soft-dirty skipped' "$out"; then
	! grep -q '^dirty .*soft-dirty' "$out"
else
	grep -q '^dirty .*soft-dirty 4K pages 1/16' "$out"
fi
result dirty_baseline_rows_or_why_not $?
