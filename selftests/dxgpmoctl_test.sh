#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Exercise dxgpmoctl in the VM: a batch session whose output is checked,
# JSON output (every command's, errors included, read by json-c's parser in
# json_check), error lines and exit status, argument parsing, dma-buf
# export, --help of every subcommand.
# Prints "dxgpmo-check: PASS|FAIL name" lines for scripts/check.sh.

tool=${DXGPMOCTL:-./dxgpmoctl}
json_check=${JSON_CHECK:-./json_check}
out=/tmp/dxgpmoctl.out
err=/tmp/dxgpmoctl.err

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
a=pmo create --type mdl --cache wc --adapter edu0 64K
l=adl allocate $a_amo 64K
dma write edu0 $l_addr round-trip-ok
adl free $l
pmo close $a_amo
a_amo=pmo open $a edu1
l=adl allocate $a_amo 64K
dma read edu1 $l_addr 13
u=view map $a 5 10
view read $u $u_offset 8
view unmap $u
adl free $l
-pmo destroy $a
pmo destroy $a $a_amo
s=basis create virtual0 0:16K
basis start $s
segment write virtual0 0x2000 x
basis query --clear $s
basis query $s
basis destroy $s
stats
SCRIPT
"$tool" -f /tmp/session.dxgpmo > "$out" 2>&1
result session_status $?
cat "$out"
expect dma_round_trip '"round-trip-ok"'
expect map_offset 'wanted data at \+0x5'
expect error_line '^pmo destroy: EBUSY — '
expect dirty_bits 'cleared \(page 0 first\): 0010$'
expect dirty_cleared '\(page 0 first\): 0000$'
expect stats_zero '^pmos +0 +0$'

# A failing call: one line naming the call and errno, non-zero status.
"$tool" pmo close 4242 > "$out" 2>&1
[ $? -ne 0 ] && grep -q '^pmo close: ENOENT — ' "$out"
result error_status $?

# JSON: one object per call; machine readable.
"$tool" --json adapter list > "$out" 2>&1
grep -q '^\[{"id":[0-9]*,"name":"' "$out" && "$json_check" 1 < "$out"
result json_adapters $?
printf 'p=pmo create 4K\npmo destroy $p\n' | "$tool" --json > "$out" 2>&1
grep -q '^{"pmo":[0-9]*,"amo":0,' "$out" && grep -q '^{"destroyed":' "$out"
result json_batch $?
# root sees the physical page numbers of an adapter without an IOMMU
printf 'p=pmo create --adapter virtual0 8K\nl=adl allocate $p_amo 8K\nadl free $l\npmo destroy $p $p_amo\n' |
	"$tool" --json > "$out" 2>&1
grep -q '"addresses_hidden":false,"base_page":[0-9]*,"pages":\[[1-9]' "$out"
result json_adl_addresses_shown $?

# bind / unbind of the spare PCI device (the job bound it already).
spare=${DXGPMO_SPARE_PCI:-}
if [ -n "$spare" ]; then
	group=$(basename "$(readlink "/sys/bus/pci/devices/$spare/iommu_group")")
	ids=$(sed 's/^0x//' "/sys/bus/pci/devices/$spare/vendor"):$(sed 's/^0x//' "/sys/bus/pci/devices/$spare/device")
	"$tool" adapter unbind "$spare" > "$out" 2>&1
	[ $? -eq 0 ] && grep -q "^$spare unbound from dxgpmo-pci; now without a driver" "$out" &&
		! "$tool" adapter list | grep -q " $spare "
	result unbind $?
	"$tool" adapter bind "$spare" > "$out" 2>&1
	[ $? -eq 0 ] && grep -q "^$spare bound to dxgpmo-pci; adapter [1-9]" "$out"
	result bind $?
	"$tool" adapter list > "$out" 2>&1
	grep -Eq "^[0-9]+ +pci[0-9]+ +$spare +$ids +$group +yes +no " "$out"
	result adapters_pci_ids_group $?
	"$tool" --json adapter list > "$out" 2>&1
	grep -q "\"pci\":\"$spare\",\"vendor\":\"${ids%:*}\",\"device\":\"${ids#*:}\",\"iommu_group\":$group," "$out"
	result json_adapters_pci $?
	# in a session: the bind's result is the adapter; no engine on it
	printf 'g=adapter bind %s\np=pmo create --adapter $g 64K\nl=adl allocate $p_amo 64K\n-dma write $g $l_addr x\nadl free $l\npmo destroy $p $p_amo\n' "$spare" |
		"$tool" > "$out" 2>&1
	[ $? -eq 0 ] && grep -q '^dma write: EOPNOTSUPP — ' "$out" &&
		grep -q 'already bound to dxgpmo-pci' "$out"
	result bind_in_session $?
	"$tool" adapter bind 0000:ff:1f.7 > "$out" 2>&1
	[ $? -ne 0 ] && grep -q '^adapter bind: ENODEV — no PCI device 0000:ff:1f.7' "$out"
	result bind_no_device $?
	"$tool" adapter bind 00:10.0 > "$out" 2>&1
	[ $? -ne 0 ] && grep -q '^adapter bind: EINVAL — .* is not a PCI address' "$out"
	result bind_bad_address $?
	edu=$(grep -l 0x11e8 /sys/bus/pci/devices/*/device | head -n 1)
	edu=$(basename "$(dirname "$edu")")
	"$tool" adapter bind "$edu" > "$out" 2>&1
	[ $? -ne 0 ] && grep -q "^adapter bind: EBUSY — $edu is in use by driver dxgpmo-edu: pass --force" "$out"
	result bind_driver_busy $?
	"$tool" --json adapter unbind "$edu" > "$out" 2>&1
	[ $? -ne 0 ] && grep -q '^{"call":"adapter unbind","error":"EINVAL","errno":22,"message":".*not bound to dxgpmo-pci (driver: dxgpmo-edu)"}$' "$out" &&
		"$json_check" 1 < "$out"
	result json_unbind_not_bound $?
else
	# the test VM always has one (scripts/vm-boot.sh)
	echo "no spare PCI device: DXGPMO_SPARE_PCI unset"
	result bind 1
fi

# --help for every OBJECT VERB, and the man page from the same table.
# --commands lists them, one "OBJECT VERB" a line ($cmd is split).
"$tool" --commands > /tmp/commands.txt
ok=0
while read -r cmd; do
	# shellcheck disable=SC2086
	"$tool" $cmd --help > /dev/null < /dev/null || ok=1
done < /tmp/commands.txt
[ "$(grep -c . /tmp/commands.txt)" -ge 29 ] || ok=1
result help_every_command $ok
"$tool" --man | grep -q '^\.TH DXGPMOCTL 1'
result man_page $?

# The usage lists every option the parser takes: each option of a
# command's --help is accepted (options before --help are parsed first)
# and stands in its synopsis, in the global usage and in the man page.
ok=0
"$tool" --help > /tmp/usage.txt
"$tool" --man | sed 's/\\-/-/g; s/\\f[BIR]//g' > /tmp/man.txt
while read -r cmd; do
	# shellcheck disable=SC2086
	"$tool" $cmd --help > "$out" < /dev/null
	synopsis=$(sed -n '1s/^usage: dxgpmoctl //p' "$out")
	grep -qxF "  $synopsis" /tmp/usage.txt || { echo "usage lacks: $synopsis"; ok=1; }
	grep -qxF ".B $synopsis" /tmp/man.txt || { echo "man page lacks: $synopsis"; ok=1; }
	# shellcheck disable=SC2013 # option names are single words
	for o in $(sed -n 's/^  \(-., \)\{0,1\} *\(--[a-z-]*\).*/\2/p' "$out"); do
		echo "$synopsis" | grep -q -- "\[${o}[] ]" || { echo "$cmd: $o not in its synopsis"; ok=1; }
		arg=$(sed -n "s/^  \(-., \)\{0,1\} *$o \([^ ]*\) .*/\2/p" "$out")
		# shellcheck disable=SC2086
		"$tool" $cmd "$o" ${arg:+x} --help > /dev/null 2>&1 < /dev/null ||
			{ echo "$cmd does not take $o"; ok=1; }
	done
done < /tmp/commands.txt
# the two create options the old hand-written usage lacked
grep -q -- '^  pmo create .*\[--io-base ADDR\] \[--protection ro|rw\]' /tmp/usage.txt || ok=1
result usage_every_option $ok

# Unknown options, anywhere: status 2 and one error line naming them.
"$tool" pmo create 4K --bogus > "$out" 2> "$err"
[ $? -eq 2 ] && [ ! -s "$out" ] &&
	grep -q "^pmo create: EINVAL — unknown option '--bogus'" "$err"
result unknown_option $?
"$tool" --bogus adapter list > "$out" 2> "$err"
[ $? -eq 2 ] && grep -q "^dxgpmoctl: EINVAL — unknown option '--bogus'" "$err"
result unknown_global_option $?

# A batch: quoted words, options after operands, "+N" sums, --expect.
cat > /tmp/parse.dxgpmo <<'SCRIPT'
p=pmo create 4K --cache wc --type mdl
u=view map $p 0 4K
view write $u 0 'say "hi" twice'
view read $u 4 4 --expect '"hi"'
view write $u 100 "two \"words\""
view read $u 100 11
s=basis create virtual0 0:16K
basis start $s
segment write virtual0 0x1000 "two words"
basis query $s --clear
basis stop $s
basis destroy $s
view unmap $u
a=pmo create --adapter edu0 64K
l=adl allocate $a_amo 64K
dma write edu0 $l_addr "two words"
dma read edu0 $l_addr+4 5 --expect words
-dma read edu0 $l_addr 3 --expect one
adl free $l
pmo destroy $a $a_amo
pmo destroy $p
SCRIPT
"$tool" -batch /tmp/parse.dxgpmo > "$out" 2>&1
result parse_session_status $?
cat "$out"
expect options_after_operands '^created pmo [0-9]+ \(mdl, wc, 4 KiB\)'
expect quoted_single 'wrote 14 byte\(s\) at \+0x0'
expect quoted_double '^  "two "words""$'
expect quoted_segment_write '^CPU wrote 9 byte\(s\) at segment offset 0x1000'
expect option_after_operands_query 'cleared \(page 0 first\): 0100$'
expect sum_of_terms '^  "words"$'
expect expect_mismatch "^dma read: EBADMSG — read 3 byte\(s\) that are not 'one'"
printf 'view write 1 0 "open quote\n' | "$tool" > "$out" 2>&1
[ $? -eq 2 ] && grep -q 'open quote' "$out"
result open_quote $?

# dma-buf export: kept for the session (its pages outlive the PMO until
# close-dmabuf), or handed to a command as fd 3 or --fd N.  The words of
# a batch line used to be handed to the command without the NULL that
# ends an argv, so it ran with words left over from a longer line, or
# execvp failed with EFAULT.
cat > /tmp/export.dxgpmo <<'SCRIPT'
p=pmo create 64K
e=dmabuf export $p
pmo destroy $p
stats
dmabuf close $e
stats
-dmabuf close 0
p=pmo create 64K
-stats a b c d e f g h i j k l m n o p
dmabuf export $p -- sh -c 'echo "child-argc-$#"' sh0 one
dmabuf export $p -- sh -c 'grep -q "^exp_name:.*dxgpmo" /proc/self/fdinfo/3 && [ "$DXGPMO_DMABUF_FD" = 3 ] && echo child-saw-fd-3'
dmabuf export --fd 7 --read-only $p -- sh -c 'sed -n "s/^size:[[:space:]]*/child-size-/p; s/^flags:.*\(.\)$/child-mode-\1/p" /proc/self/fdinfo/7'
-dmabuf export $p -- sh -c 'exit 3'
pmo destroy $p
stats
SCRIPT
"$tool" -batch /tmp/export.dxgpmo > "$out" 2>&1
result export_session_status $?
cat "$out"
expect export_kept '^pmo [0-9]+: read-write dma-buf kept as fd [0-9]+$'
grep -E '^pages +[0-9]+ ' "$out" | head -n 1 | grep -Eq '^pages +(1[6-9]|[2-9][0-9]|[0-9]{3,}) '
result export_pages_outlive_pmo $?
grep -E '^pages +[0-9]+ ' "$out" | sed -n 2p | grep -Eq '^pages +0 +0$'
result export_close_frees_pages $?
expect export_close_not_dmabuf '^dmabuf close: EINVAL — fd 0 is no dma-buf'
expect export_child_fd3 '^child-saw-fd-3$'
# The command gets its own words only, none left from a longer line.
expect export_child_argv '^child-argc-1$'
expect export_child_fd_option '^child-size-65536$'
expect export_child_read_only '^child-mode-0$'
expect export_child_status '^pmo [0-9]+: read-write dma-buf as fd 3 of .sh., exit status 3$'
grep -E '^pages +[0-9]+ ' "$out" | sed -n 3p | grep -Eq '^pages +0 +0$'
result export_no_leak $?

# The JSON checker must be able to fail: unescaped quotes, no output.
printf '{"name":"a"b"}\n' | "$json_check" > /dev/null 2>&1
[ $? -ne 0 ]
result json_check_rejects_unescaped $?
: | "$json_check" > /dev/null 2>&1
[ $? -ne 0 ]
result json_check_rejects_nothing $?

# Commands that once printed nothing with --json print one object each.
printf 's=basis create virtual0 0:16K\nbasis start $s\nbasis stop $s\nbasis destroy $s\n' |
	"$tool" --json > "$out" 2>&1
"$json_check" 4 < "$out"
result json_formerly_silent_commands $?

# --json: one JSON text on stdout per command, for every command (the
# loop below fails for one this session does not run); errors one JSON
# object on stderr.
cat > /tmp/json.dxgpmo <<'SCRIPT'
echo a "quoted" word and a \backslash
adapter list
adapter show edu0
p=pmo create --adapter edu0 64K
pmo show $p
l=adl allocate $p_amo 64K
adl show $l
dma write edu0 $l_addr "two words"
dma read edu0 $l_addr 9 --expect "two words"
adl free $l
pmo close $p_amo
p_amo=pmo open $p edu1
pmo close $p_amo
u=view map $p 0 4K
view write $u 0 'say "hi"'
view read $u 0 8
view list
view unmap $u
e=dmabuf export $p
dmabuf close $e
dmabuf export $p -- true
pmo destroy $p
s=basis create virtual0 0:16K
basis start $s
segment write virtual0 0x1000 "two words"
segment read virtual0 0x1000 9 --expect "two words"
basis query $s
basis stop $s
basis destroy $s
stats show
SCRIPT
if [ -n "$spare" ]; then
	printf 'adapter bind %s\nadapter unbind %s\nadapter bind %s\n' "$spare" "$spare" "$spare" >> /tmp/json.dxgpmo
fi
"$tool" --json -batch /tmp/json.dxgpmo > "$out" 2> "$err"
status=$?
cat "$out" "$err"
[ $status -eq 0 ] && [ ! -s "$err" ] &&
	"$json_check" "$(grep -c . /tmp/json.dxgpmo)" < "$out"
result json_every_command_output $?
ok=0
# monitor runs until a signal: dxgpmoctl_monitor.sh reads its JSON.
while read -r cmd; do
	[ "$cmd" != monitor ] || continue
	grep -Eq "^([a-z_]+=)?$cmd( |\$)" /tmp/json.dxgpmo ||
		{ echo "the JSON session does not run $cmd"; ok=1; }
done < /tmp/commands.txt
result json_session_covers_every_command $ok
grep -q '^{"echo":"a \\"quoted\\" word and a \\\\backslash"}$' "$out" &&
	grep -q '"bytes":"74776f20776f726473"' "$out" &&
	grep -q '^{"basis":[0-9]*,"tracking":true}$' "$out" &&
	grep -q '"ranges":\[{"offset":0,"length":16384}\]}$' "$out" &&
	grep -q '^{"pmos":{"global":[0-9]*,"file":0},' "$out"
result json_values $?

# every command's usage error, as JSON on stderr and nothing on stdout
ok=0
while read -r cmd; do
	# shellcheck disable=SC2086
	"$tool" --json $cmd --no-such-option > "$out" 2> "$err" < /dev/null
	# shellcheck disable=SC2015 # any of the checks failing reports
	[ $? -eq 2 ] && [ ! -s "$out" ] && "$json_check" 1 < "$err" > /dev/null &&
		grep -q "^{\"call\":\"$cmd\",\"error\":\"EINVAL\",\"errno\":22,\"message\":\"unknown option '--no-such-option'" "$err" ||
		{ echo "$cmd:"; cat "$out" "$err"; ok=1; }
done < /tmp/commands.txt
result json_every_command_usage_error $ok

# failed calls, names with quotes, unknown commands, a batch's line
json_error() {	# json_error NAME STATUS PATTERN ARGS...
	name=$1 want=$2 pattern=$3
	shift 3
	"$tool" --json "$@" > "$out" 2> "$err"
	status=$?
	[ $status -eq "$want" ] && [ ! -s "$out" ] &&
		"$json_check" 1 < "$err" > /dev/null && grep -q -- "$pattern" "$err"
	result "$name" $?
}
json_error json_error_call 1 '^{"call":"pmo close","error":"ENOENT","errno":2,"message":"no such adapter memory object' pmo close 4242
json_error json_error_quoted_name 2 'bad argument .ed\\"u0' pmo create --adapter 'ed"u0' 4K
json_error json_error_unknown_command 2 '^{"call":"fo\\"o","error":"EINVAL"' 'fo"o'
printf 'adapter list\npmo close 4242\n' | "$tool" --json > "$out" 2> "$err"
[ $? -eq 1 ] && "$json_check" 1 < "$out" > /dev/null &&
	"$json_check" 1 < "$err" > /dev/null &&
	grep -q '"batch":"stdin","line":2}$' "$err"
result json_error_batch_line $?

# A long batch maps and unmaps for its whole life, as a driver does: each
# unmap gives the address range back.  With vm.max_map_count a little
# above what the tool itself maps, 2000 pairs that each left a range
# behind fail within a few hundred.
old_max=$(cat /proc/sys/vm/max_map_count)
{
	echo 'p=pmo create 8K'
	i=0
	while [ $i -lt 2000 ]; do
		echo 'u=view map $p 0 8K'
		echo 'view unmap $u'
		i=$((i + 1))
	done
	echo 'pmo destroy $p'
} > /tmp/steady.dxgpmo
echo 300 > /proc/sys/vm/max_map_count
"$tool" -batch /tmp/steady.dxgpmo > "$out" 2>&1
status=$?
echo "$old_max" > /proc/sys/vm/max_map_count
[ $status -eq 0 ] || tail -3 "$out"
result batch_map_unmap_steady $status

# The OBJECT VERB grammar (issue 47): abbreviations, the error of an
# ambiguous one, OBJECT help, and the old flat commands refused with
# their new form.
"$tool" p c 4K > "$out" 2>&1
[ $? -eq 0 ] && grep -Eq '^created pmo [0-9]+ \(mdl, cached, 4 KiB\)' "$out"
result grammar_one_letter_abbreviations $?
"$tool" -j ad l > "$out" 2>&1
[ $? -eq 2 ] && grep -q "'ad' is ambiguous: adapter, adl" "$out" &&
	"$json_check" 1 < "$out" > /dev/null
result grammar_ambiguous_object $?
"$tool" adap li > "$out" 2>&1
[ $? -eq 0 ] && grep -Eq '^[0-9]+ +edu0 ' "$out"
result grammar_unique_prefixes $?
"$tool" basis st 1 > "$out" 2>&1
[ $? -eq 2 ] && grep -q "^basis: EINVAL — 'st' is ambiguous: start, stop$" "$out"
result grammar_ambiguous_verb $?
"$tool" pmo help > "$out" 2>&1
[ $? -eq 0 ] && [ "$(grep -Ec '^  pmo (create|open|close|destroy|show)( |$)' "$out")" -eq 5 ] &&
	! grep -q '^  adl ' "$out"
result grammar_object_help $?
"$tool" help > "$out" 2>&1
[ $? -eq 0 ] && grep -Eq '^  adapter +the adapters' "$out" &&
	grep -Eq '^  monitor +' "$out"
result grammar_help_lists_objects $?
"$tool" adapter > "$out" 2>&1
[ $? -eq 0 ] && grep -q '^ID  *NAME ' "$out"
result grammar_default_verb $?
ok=0
for old in 'free-adl adl free' 'close-dmabuf dmabuf close' 'destroy-basis basis destroy' \
	'adapters adapter list' 'segment-write segment write' 'query basis query'; do
	"$tool" "${old%% *}" 1 > "$out" 2>&1
	# shellcheck disable=SC2015
	[ $? -eq 2 ] && [ "$(wc -l < "$out")" -eq 1 ] &&
		grep -q "^dxgpmoctl: EINVAL — '${old%% *}' is now '${old#* }'$" "$out" ||
		{ cat "$out"; ok=1; }
done
"$tool" adl 1 64K > "$out" 2>&1
[ $? -eq 2 ] && grep -q "'adl AMO LENGTH' is now 'adl allocate AMO LENGTH'" "$out" || ok=1
printf 'p=pmo create 4K\nfree-adl 1\n' | "$tool" > "$out" 2>&1
[ $? -eq 2 ] && grep -q "'free-adl' is now 'adl free'" "$out" &&
	grep -q 'stdin:2: stopped' "$out" || ok=1
result grammar_old_verbs_hint $ok

# $name and $name_suffix are replaced on every line, echo's too, and not
# inside '...'; a name no command stored stops the batch.
cat > /tmp/vars.dxgpmo <<'SCRIPT'
p=pmo create --adapter virtual0 8K
echo pmo $p amo $p_amo at $p_mmap, '$p' kept, $5 kept
l=adl allocate $p_amo 4K --offset 4K
echo "adl $l" first page $l_addr, $l_pages page
adl free $l
pmo destroy $p $p_amo
SCRIPT
"$tool" -f /tmp/vars.dxgpmo > "$out" 2>&1
status=$?
cat "$out"
p=$(sed -n 's/^created pmo \([0-9]*\) .*amo \([0-9]*\) on .*/\1 amo \2/p' "$out")
l=$(sed -n 's/^adl \([0-9]*\): .*/\1/p' "$out")
[ $status -eq 0 ] && [ -n "$p" ] && [ -n "$l" ] &&
	grep -Eq "^pmo $p at [0-9]+, '\\\$p' kept, \\\$5 kept$" "$out" &&
	grep -Eq "^\"adl $l\" first page [1-9][0-9]*, 1 page$" "$out"
result batch_echo_substitutes $?
printf 'p=pmo create 4K\necho $p_nope\npmo destroy $p\n' | "$tool" > "$out" 2>&1
[ $? -eq 2 ] && grep -q '^dxgpmoctl: EINVAL — no variable \$p_nope' "$out" &&
	grep -q 'stdin:2: stopped' "$out"
result batch_unknown_variable $?

# basis query takes the size from the basis; a subrange its own; CPU
# reads of the segment give back what the CPU wrote.
cat > /tmp/query.dxgpmo <<'SCRIPT'
s=basis create virtual0 0:16K 0x8000:8K
basis start $s
segment write virtual0 0x2000 seg-round-trip
segment write virtual0 0x9000 x
segment read virtual0 0x2000 14 --expect seg-round-trip
basis query $s 0 0x2000 8K
basis query --clear $s
basis query $s
-segment read virtual0 0x2000 3 --expect nope
basis destroy $s
SCRIPT
"$tool" -f /tmp/query.dxgpmo > "$out" 2>&1
status=$?
cat "$out"
[ $status -eq 0 ] && grep -q '^  "seg-round-trip"$' "$out" &&
	grep -q "^segment read: EBADMSG — read 3 byte(s) that are not 'nope'" "$out"
result segment_read_write_round_trip $?
grep -Eq '^dirty bits of basis [0-9]+ \(page 0 first\): 10$' "$out" &&
	grep -Eq '^dirty bits of basis [0-9]+, cleared \(page 0 first\): 001001$' "$out" &&
	grep -Eq '^dirty bits of basis [0-9]+ \(page 0 first\): 000000$' "$out"
result query_without_count $?

# An ADL is reported contiguous only to a caller that asked for it, as
# libdxgk hands DXGK_ADL's contiguous form: a contiguous object's ADL is
# one run whatever was asked.
cat > /tmp/adl.dxgpmo <<'SCRIPT'
p=pmo create --type contiguous --adapter virtual0 64K
l=adl allocate $p_amo 64K
m=adl allocate --prefer-contiguous $p_amo 64K
n=adl allocate --require-contiguous $p_amo 64K
adl show $l
adl free $l
adl free $m
adl free $n
pmo destroy $p $p_amo
SCRIPT
"$tool" -f /tmp/adl.dxgpmo > "$out" 2>&1
status=$?
cat "$out"
[ $status -eq 0 ] && [ "$(grep -Ec '^adl [0-9]+: 16 page\(s\), pages: 0x[0-9a-f]+ ' "$out")" -eq 2 ] &&
	[ "$(grep -Ec '^adl [0-9]+: 16 page\(s\), contiguous at logical page 0x[0-9a-f]+ ' "$out")" -eq 2 ] &&
	! grep -q 'not contiguous' "$out"
result adl_contiguity_as_asked $?
"$tool" -j -f /tmp/adl.dxgpmo > "$out" 2>&1
[ "$(grep -c '"asked":"pages","contiguous":false,"addresses_hidden":false,"base_page":0,"pages":\[[1-9]' "$out")" -eq 2 ] &&
	grep -q '"asked":"prefer-contiguous","contiguous":true,"addresses_hidden":false,"base_page":[1-9]' "$out" &&
	grep -q '"asked":"require-contiguous","contiguous":true,' "$out"
result json_adl_contiguity_as_asked $?

# No device node: the module not loaded, said with the modprobe hint.
DXGPMO_DEVICE=/dev/dxgpmo-missing "$tool" adapter list > "$out" 2>&1
[ $? -eq 1 ] && [ "$(wc -l < "$out")" -eq 1 ] &&
	grep -q '^adapter list: ENOENT — no /dev/dxgpmo-missing: is the module loaded? (modprobe dxgpmo)$' "$out"
result no_module_modprobe_hint $?

# The man page's batch example runs as it is printed.
"$tool" --man | sed -n '/^\.nf$/,/^\.fi$/p' | sed '1d; $d; s/\\-/-/g; s/\\\\/\\/g' > /tmp/man-example.dxgpmo
"$tool" -f /tmp/man-example.dxgpmo > "$out" 2>&1
status=$?
cat "$out"
[ $status -eq 0 ] && [ "$(grep -c . /tmp/man-example.dxgpmo)" -ge 10 ] &&
	grep -Eq '^adl [0-9]+: device address [1-9][0-9]*$' "$out"
result man_page_example_runs $?
