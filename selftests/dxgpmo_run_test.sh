#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make check's program for make run (scripts/lib/run-lane.sh), run in the
# VM of scripts/run.sh: says what it was given, uses the tools the guest
# should have (strace, gdb, dxgpmoctl on the test module) and exits with
# its first argument, so that the host sees both the output and the
# status come back.
echo "run-test: args [$*]"
strace -c -o /tmp/strace.out true && grep -q 'total' /tmp/strace.out &&
	echo "run-test: strace counted the calls of true"
gdb --batch --version | sed -n '1s/^/run-test: /p'
dxgpmoctl adapter list | grep -q edu0 && echo "run-test: dxgpmoctl sees edu0"
echo "run-test: cwd $(pwd)"
exit "$1"
