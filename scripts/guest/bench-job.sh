#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Benchmarks in the VM: the table, then the JSON lines between markers.
# debug_ioctls=1 gives dxgpmo-bench the in-module timing command; its ADLs
# go up to its largest object (1 GiB), past the default max_adl_mb; the
# dirty scenario goes up to a 1 GiB segment.  The write-combined create
# rows with a warm pool need a pool that holds their largest object
# (1 GiB): the default cap, a quarter of the guest's RAM, is a little less.
# shellcheck source=job-lib.sh
. ./job-lib.sh
load_module debug_ioctls=1 max_adl_mb=4096 segment_mb=1024 pool_max_mb=1536
# udmabuf, a baseline of the create scenario, refuses buffers over
# size_limit_mb (64 by default); the scenario goes up to 1 GiB.
limit=/sys/module/udmabuf/parameters/size_limit_mb
[ ! -w $limit ] || echo 1024 > $limit
# The spare PCI device (vm-boot.sh) on the generic driver: the ADL rows then
# include an adapter without an engine, as on a real machine.
./dxgpmoctl adapter bind 0000:00:10.0
# The second edu on vfio-pci, for the ADL rows' user-space peer (VFIO
# type1), when the kernel has it: behind the same IOMMU as edu0.
edu1=
for d in /sys/bus/pci/devices/*; do
	[ "$(cat "$d/vendor"):$(cat "$d/device")" = 0x1234:0x11e8 ] || continue
	[ -z "${seen_edu:-}" ] || { edu1=${d##*/}; break; }
	seen_edu=1
done
if [ -n "$edu1" ] && [ -d /sys/bus/pci/drivers/vfio-pci ]; then
	[ ! -e "/sys/bus/pci/devices/$edu1/driver" ] ||
		echo "$edu1" > "/sys/bus/pci/devices/$edu1/driver/unbind"
	echo vfio-pci > "/sys/bus/pci/devices/$edu1/driver_override"
	echo "$edu1" > /sys/bus/pci/drivers_probe
fi
# shellcheck source=/dev/null
[ -f ./bench.env ] && . ./bench.env
if [ -z "${DXGPMO_BENCH_ONLY:-}" ]; then
	./dxgpmo-bench --json /tmp/bench.json
else
	: > /tmp/bench.json
	for scenario in $DXGPMO_BENCH_ONLY; do
		./dxgpmo-bench --json /tmp/bench-one.json --only "$scenario"
		cat /tmp/bench-one.json >> /tmp/bench.json
	done
fi
# What the trace events cost compiled in and off, against a build without
# them, each loaded in turn (it reloads the module: the adapters come back,
# the spare device is not bound again).
case " ${DXGPMO_BENCH_ONLY:-trace} " in
*" trace "*)
	./dxgpmo-bench --json /tmp/bench-trace.json --only trace \
		--trace-baseline ./dxgpmo-notrace.ko
	cat /tmp/bench-trace.json >> /tmp/bench.json
	;;
esac
# The dirty scenario again with 2 MiB dirty pages (write faults on 2 MiB
# granules), after a reload: the page size is a module parameter.
case " ${DXGPMO_BENCH_ONLY:-dirty} " in
*" dirty "*)
	rmmod dxgpmo
	load_module debug_ioctls=1 segment_mb=1024 dirty_page_size=2097152
	./dxgpmo-bench --json /tmp/bench-2m.json --only dirty
	cat /tmp/bench-2m.json >> /tmp/bench.json
	;;
esac
echo "dxgpmo-bench: json begin"
cat /tmp/bench.json
echo "dxgpmo-bench: json end"
