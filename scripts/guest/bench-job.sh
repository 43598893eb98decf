#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Benchmarks in the VM: the table, then the JSON lines between markers.
insmod ./dxgpmo.ko || exit 1
./dxgpmo-bench
echo "dxgpmo-bench: json begin"
./dxgpmo-bench --json
echo "dxgpmo-bench: json end"
