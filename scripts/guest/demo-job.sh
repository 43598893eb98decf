#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside the demo VM: load the module, run the demo script, then draw
# the picture the host saves from the VM's screen.
# shellcheck source=job-lib.sh
. ./job-lib.sh
load_module
echo "dxgpmo-demo: begin"
./dxgpmoctl -f ./demo.dxgpmo 2>&1
status=$?
echo
echo "== libdxgk: a mobile GPU driver's buffer, in Windows names (edu0)"
./dxgk-mobile-gpu edu0 2>&1 || status=1
echo
echo "== libdxgk: Dxgkrnl's live migration of an edu segment, in Windows names"
./dxgk-live-migration edu0 2>&1 || status=1
echo
echo "== a picture: a PMO drawn by the CPU and the edu engine, on cirrus's screen"
./dxgpmo-demo-screen 2>&1 || status=1
echo "dxgpmo-demo: end status $status"
rmmod dxgpmo
