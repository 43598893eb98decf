#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside the VM of make run and make shell (scripts/run.sh): mounts
# what the host shares over 9p, loads the test module, then runs the
# program, or a shell, as the host's run.env says.  The host reads the
# program's output between "dxgpmo-run: begin" and its status,
# "dxgpmo-run: exit N", from the serial log; the kernel log follows, for
# whoever reads the log.
# The run_* variables come from run.env, which the host writes.
# shellcheck disable=SC2154
# shellcheck source=job-lib.sh
. ./job-lib.sh

# share TAG DIR: the host's folder TAG (a -fsdev of run.sh) at DIR.
share() {
	mkdir -p "$2"
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 "$1" "$2" ||
		{ echo "dxgpmo-run: cannot mount the host's $1 at $2"; exit 1; }
}
share dxgpmo-tree /tree
share dxgpmo-run /dxgpmo/run
# The run's own files, which the host writes before each boot.
ctl=/dxgpmo/run/ctl
# run_mode, run_cwd, run_prog_share, run_user_share, run_modparams,
# run_rows, run_cols and the environment the program gets.
# shellcheck source=/dev/null
. "$ctl/run.env"
[ -z "$run_prog_share" ] || share dxgpmo-prog /prog
[ -z "$run_user_share" ] || share dxgpmo-user /dxgpmo/user
# shellcheck disable=SC2086
insmod /dxgpmo/run/dxgpmo.ko $run_modparams ||
	echo "dxgpmo-run: insmod dxgpmo.ko $run_modparams failed"
cd "$run_cwd" || exit 1

if [ "$run_mode" = shell ]; then
	[ -z "$run_rows" ] || stty rows "$run_rows" cols "$run_cols"
	cat "$ctl/banner"
	# cttyhack makes the console the shell's controlling terminal, so
	# that Ctrl-C and Ctrl-Z reach the program it runs.
	setsid cttyhack sh
	exit 0
fi

echo "dxgpmo-run: begin"
# No input: the serial console of make run has none to give.
sh "$ctl/cmd.sh" < /dev/null
status=$?
echo "dxgpmo-run: exit $status"
dump_dmesg
