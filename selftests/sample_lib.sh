#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Sourced by the sample drivers' tests (dxgpmo_client_sample.sh,
# dxgkrnl_sample.sh): their result lines, dxgpmo's live counters and the
# edu device they are handed.  The caller sets sample_prefix.
# shellcheck disable=SC2034,SC2154

stats=/sys/kernel/debug/dxgpmo/stats

result() {
	if [ "$2" = 0 ]; then
		echo "dxgpmo-check: PASS ${sample_prefix}$1"
	else
		echo "dxgpmo-check: FAIL ${sample_prefix}$1"
	fi
}

# Every counter of live things (see check-job.sh).
live_counters() {
	grep -vE '^(leaked_|segment_pages)' "$stats"
}

# The second edu device, in PCI order (dxgpmo's edu driver keeps the first).
second_edu() {
	n=0
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor"):$(cat "$d/device")" = 0x1234:0x11e8 ] ||
			continue
		n=$((n + 1))
		if [ $n = 2 ]; then
			echo "${d##*/}"
			return
		fi
	done
}
