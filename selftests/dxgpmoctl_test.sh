#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Exercise dxgpmoctl in the VM: a batch session whose output is checked,
# JSON output, error lines and exit status, --help of every subcommand.
# Prints "dxgpmo-check: PASS|FAIL name" lines for scripts/check.sh.

tool=${DXGPMOCTL:-./dxgpmoctl}
out=/tmp/dxgpmoctl.out

result() {
	if [ "$2" = 0 ]; then
		echo "dxgpmo-check: PASS dxgpmoctl_$1"
	else
		echo "dxgpmo-check: FAIL dxgpmoctl_$1"
	fi
}

expect() {	# expect NAME PATTERN: PATTERN (grep -E) is in the output
	grep -Eq -- "$2" "$out"
	result "$1" $?
}

cat > /tmp/session.dxgpmo <<'SCRIPT'
a=create --type mdl --cache wc --adapter edu0 64K
l=adl $a_amo 64K
dma edu0 $l_addr write round-trip-ok
free-adl $l
close $a_amo
a_amo=open $a edu1
l=adl $a_amo 64K
dma edu1 $l_addr read 13
u=map $a 5 10
view-read $u $u_offset 8
unmap $u
free-adl $l
-destroy $a
destroy $a $a_amo
s=basis virtual0 0:16K
start $s
segment-write virtual0 0x2000 x
query --clear $s 4
query $s 4
destroy-basis $s
stats
SCRIPT
"$tool" -f /tmp/session.dxgpmo > "$out" 2>&1
result session_status $?
cat "$out"
expect dma_round_trip '"round-trip-ok"'
expect map_offset 'wanted data at \+0x5'
expect error_line '^destroy: EBUSY — '
expect dirty_bits 'cleared \(page 0 first\): 0010$'
expect dirty_cleared '\(page 0 first\): 0000$'
expect stats_zero '^pmos +0 +0$'

# A failing call: one line naming the call and errno, non-zero status.
"$tool" close 4242 > "$out" 2>&1
[ $? -ne 0 ] && grep -q '^close: ENOENT — ' "$out"
result error_status $?

# JSON: one object per call; machine readable.
"$tool" --json adapters > "$out" 2>&1
grep -q '^\[{"id":[0-9]*,"name":"' "$out"
result json_adapters $?
printf 'p=create 4K\ndestroy $p\n' | "$tool" --json > "$out" 2>&1
grep -q '^{"pmo":[0-9]*,"amo":0,' "$out" && grep -q '^{"destroyed":' "$out"
result json_batch $?
# root sees the physical page numbers of an adapter without an IOMMU
printf 'p=create --adapter virtual0 8K\nl=adl $p_amo 8K\nfree-adl $l\ndestroy $p $p_amo\n' |
	"$tool" --json > "$out" 2>&1
grep -q '"addresses_hidden":false,"base_page":[0-9]*,"pages":\[[1-9]' "$out"
result json_adl_addresses_shown $?

# bind / unbind of the spare PCI device (the job bound it already).
spare=${DXGPMO_SPARE_PCI:-}
if [ -n "$spare" ]; then
	group=$(basename "$(readlink "/sys/bus/pci/devices/$spare/iommu_group")")
	ids=$(sed 's/^0x//' "/sys/bus/pci/devices/$spare/vendor"):$(sed 's/^0x//' "/sys/bus/pci/devices/$spare/device")
	"$tool" unbind "$spare" > "$out" 2>&1
	[ $? -eq 0 ] && grep -q "^$spare unbound from dxgpmo-pci; now without a driver" "$out" &&
		! "$tool" adapters | grep -q " $spare "
	result unbind $?
	"$tool" bind "$spare" > "$out" 2>&1
	[ $? -eq 0 ] && grep -q "^$spare bound to dxgpmo-pci; adapter [1-9]" "$out"
	result bind $?
	"$tool" adapters > "$out" 2>&1
	grep -Eq "^[0-9]+ +pci[0-9]+ +$spare +$ids +$group +yes +no " "$out"
	result adapters_pci_ids_group $?
	"$tool" --json adapters > "$out" 2>&1
	grep -q "\"iommu_group\":$group,\"pci\":\"$spare\",\"vendor\":\"${ids%:*}\",\"device\":\"${ids#*:}\"" "$out"
	result json_adapters_pci $?
	# in a session: the bind's result is the adapter; no engine on it
	printf 'g=bind %s\np=create --adapter $g 64K\nl=adl $p_amo 64K\n-dma $g $l_addr write x\nfree-adl $l\ndestroy $p $p_amo\n' "$spare" |
		"$tool" > "$out" 2>&1
	[ $? -eq 0 ] && grep -q '^dma: EOPNOTSUPP — ' "$out" &&
		grep -q 'already bound to dxgpmo-pci' "$out"
	result bind_in_session $?
	"$tool" bind 0000:ff:1f.7 > "$out" 2>&1
	[ $? -ne 0 ] && grep -q '^bind: ENODEV — no PCI device 0000:ff:1f.7' "$out"
	result bind_no_device $?
	"$tool" bind 00:10.0 > "$out" 2>&1
	[ $? -ne 0 ] && grep -q '^bind: EINVAL — .* is not a PCI address' "$out"
	result bind_bad_address $?
	edu=$(grep -l 0x11e8 /sys/bus/pci/devices/*/device | head -n 1)
	edu=$(basename "$(dirname "$edu")")
	"$tool" bind "$edu" > "$out" 2>&1
	[ $? -ne 0 ] && grep -q "^bind: EBUSY — $edu is in use by driver dxgpmo-edu: pass --force" "$out"
	result bind_driver_busy $?
	"$tool" --json unbind "$edu" > "$out" 2>&1
	[ $? -ne 0 ] && grep -q '^{"call":"unbind","error":"EINVAL","errno":22,"message":".*not bound to dxgpmo-pci (driver: dxgpmo-edu)"}$' "$out"
	result json_unbind_not_bound $?
else
	# the test VM always has one (scripts/vm-boot.sh)
	echo "no spare PCI device: DXGPMO_SPARE_PCI unset"
	result bind 1
fi

# --help for every subcommand, and the man page from the same table.
ok=0
for cmd in $("$tool" --commands); do
	"$tool" "$cmd" --help > /dev/null || ok=1
done
result help_every_command $ok
"$tool" --man | grep -q '^\.TH DXGPMOCTL 8'
result man_page $?
