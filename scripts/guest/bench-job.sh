#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Benchmarks in the VM: the table, then the JSON lines between markers.
# debug_ioctls=1 gives dxgpmo-bench the in-module timing command; its ADLs
# go up to its largest object (1 GiB), past the default max_adl_mb; the
# dirty scenario goes up to a 1 GiB segment.
# shellcheck source=job-lib.sh
. ./job-lib.sh
load_module debug_ioctls=1 max_adl_mb=4096 segment_mb=1024
# udmabuf, a baseline of the create scenario, refuses buffers over
# size_limit_mb (64 by default); the scenario goes up to 1 GiB.
limit=/sys/module/udmabuf/parameters/size_limit_mb
[ ! -w $limit ] || echo 1024 > $limit
# The spare PCI device (vm-boot.sh) on the generic driver: the ADL rows then
# include an adapter without an engine, as on a real machine.
./dxgpmoctl bind 0000:00:10.0
./dxgpmo-bench --json /tmp/bench.json
echo "dxgpmo-bench: json begin"
cat /tmp/bench.json
echo "dxgpmo-bench: json end"
