#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-boot.sh with a display the host can look at: the VM gets a cirrus-vga
# adapter as its only display, QEMU's QMP monitor and the guest's second
# serial port (ttyS1) go to scripts/screen-agent.py, which takes QEMU's own
# screendumps when the guest asks and checks or keeps them in DIR.
#
# usage: vm-boot-screen.sh DIR KVER INITRD LOG [EXTRA_KERNEL_ARGS]
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
[ $# -ge 4 ] || usage_error "missing arguments"

dir=$1
shift
here=$(dirname "$0")
mkdir -p "$dir"
rm -f "$dir/ready"
/usr/bin/python3 "$here/screen-agent.py" "$dir" &
agent=$!
# Wall time: on a loaded host Python alone can take seconds to start.
deadline=$(($(date +%s) + 30))
while [ ! -e "$dir/ready" ]; do
	if [ "$(date +%s)" -ge "$deadline" ] || ! kill -0 "$agent" 2>/dev/null; then
		echo "vm-boot-screen: the screen agent did not start" >&2
		kill "$agent" 2>/dev/null || true
		exit 1
	fi
	sleep 0.1
done
set +e
# The agent's sockets are in a short directory of its own (see its usage).
sockets=$(cat "$dir/ready")
DXGPMO_VM_SCREEN=$sockets "$here/vm-boot.sh" "$@"
status=$?
# The agent leaves when QEMU's connections close; one that is stuck goes.
i=0
while kill -0 "$agent" 2>/dev/null && [ "$i" -lt 50 ]; do
	i=$((i + 1))
	sleep 0.1
done
kill "$agent" 2>/dev/null
wait "$agent" 2>/dev/null
# The agent removes its directory as it exits, unless it was killed hard.
case $sockets in
*/dxgpmo-screen.*) rm -rf "$sockets" ;;
esac
exit "$status"
