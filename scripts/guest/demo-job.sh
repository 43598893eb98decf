#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside the demo VM: load the module and run the demo script.
insmod ./dxgpmo.ko || exit 1
echo "dxgpmo-demo: begin"
./dxgpmoctl -f ./demo.dxgpmo 2>&1
echo "dxgpmo-demo: end status $?"
rmmod dxgpmo
