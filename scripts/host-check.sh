#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Checks of the test harness's own host side, no VM: what make check
# needs of the host wherever the repository was cloned.
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
python3 "$top/scripts/screen-agent.py" "$deep" 2> "$tmp/agent.err" &
agent=$!
i=0
while [ ! -e "$deep/ready" ] && kill -0 "$agent" 2>/dev/null &&
	[ "$i" -lt 100 ]; do
	i=$((i + 1))
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

exit "$status"
