#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside the test VM (from /dxgpmo).  Every line "dxgpmo-check: PASS|FAIL
# name" and every kselftest "# Totals:" line is counted by scripts/check.sh.
# shellcheck source=job-lib.sh
. ./job-lib.sh
# Every test may assert the exact test VM (vm-boot.sh) it runs in.
export DXGPMO_TEST_VM=1
# A KASAN kernel (make check-debug) sees use-after-free races, which the
# race test then runs longer for; its boot message is still in the log.
if dmesg | grep -q 'KernelAddressSanitizer initialized'; then
	export DXGPMO_KASAN=1
fi
# What make check chose for this boot (tests.env): the resource-steady
# pairs' cycles (without it 100,000) and DXGPMO_TESTS_PART, which half of
# the suite a boot runs when the suite is split in two boots side by side
# (1 or 2; empty: all of it, one boot).
DXGPMO_TESTS_PART=
# shellcheck source=/dev/null
[ ! -f ./tests.env ] || . ./tests.env

live_counters_zero() {
	# every counter of live things in debugfs is 0 (leak totals and the
	# adapters' segment pages and PMD maps, which live as long as the
	# adapter, excluded)
	! grep -vE '^(leaked_|segment_)' /sys/kernel/debug/dxgpmo/stats |
		grep -vq ' 0$'
}

# On a debug kernel: no unreferenced object since the last clear.
kmemleak_check() {
	[ -e /sys/kernel/debug/kmemleak ] || return 0
	echo scan > /sys/kernel/debug/kmemleak
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak > /tmp/kmemleak
	cat /tmp/kmemleak
	check "$1" test ! -s /tmp/kmemleak
}

# vgem is a module on Debian's kernels, built in on the debug kernel; a
# platform device up to 6.x, a faux device on 7.x
check vgem_present test -e /sys/bus/platform/devices/vgem \
	-o -e /sys/bus/faux/devices/vgem
[ -e /sys/kernel/debug/kmemleak ] && echo clear > /sys/kernel/debug/kmemleak
load_module debug_ioctls=1
[ -c /dev/dxgpmo ] || { echo "dxgpmo-check: FAIL dev_node"; exit 1; }
# The VM's spare PCI device (vm-boot.sh) and one that shares its slot.
export DXGPMO_SPARE_PCI=0000:00:10.0 DXGPMO_SHARED_PCI=0000:00:11.0 \
	PATH="/dxgpmo:$PATH"

# The first half of the suite: the KUnit results, the documentation's
# commands, the programs that need no reload, the tool's session and the
# in-kernel client.
tests_first_half() {
	# A test build with the KUnit suites (module/kunit/; only a kernel with
	# KUnit, make check-debug's, has them) ran them as it loaded; the results
	# stay in debugfs while it is loaded.  One line a case, "dxgpmo-kunit:
	# PASS|FAIL|SKIP suite.case", which the host counts; a suite that reports
	# fewer cases than it planned fails too, and a failed one's KTAP follows.
	for results in /sys/kernel/debug/kunit/dxgpmo_*/results; do
		[ -e "$results" ] || continue
		suite=${results%/results}
		suite=${suite##*/}
		awk -v suite="$suite" '
			/^    1\.\.[0-9]+$/ && plan == "" { plan = substr($0, 8) + 0 }
			/^    (not )?ok [0-9]+ / {
				name = $0
				sub(/^    (not )?ok [0-9]+ /, "", name)
				verdict = ($1 == "not") ? "FAIL" : "PASS"
				if (name ~ / # SKIP/)
					verdict = "SKIP"
				print "dxgpmo-kunit: " verdict " " suite "." name
				if (verdict == "FAIL")
					failed = 1
				n++
			}
			END {
				short = plan == "" || n != plan
				if (short)
					printf "dxgpmo-kunit: FAIL %s: %d results of %s planned\n", suite, n, plan
				exit failed || short
			}' "$results" || sed 's/^/dxgpmo-kunit-ktap: /' "$results"
	done

	# The spare PCI device for the generic driver: first by the
	# documentation's own commands, as written, then by dxgpmoctl for the
	# tests, which all run with it bound (the every-adapter tests include it).
	check spare_pci_is_vmxnet3 grep -qx 0x15ad \
		"/sys/bus/pci/devices/$DXGPMO_SPARE_PCI/vendor"
	# shellcheck disable=SC2016
	check doc_bind_commands sh -ec '. ./doc-bind.sh
		readlink /sys/bus/pci/devices/$dev/driver | grep -q "/dxgpmo-pci$"
		dxgpmoctl adapter list | grep -q " $dev "'
	# shellcheck disable=SC2016
	check doc_unbind_commands sh -ec 'dev=$DXGPMO_SPARE_PCI
		. ./doc-unbind.sh
		! readlink /sys/bus/pci/devices/$dev/driver
		! dxgpmoctl adapter list | grep -q " $dev "'
	check bind_spare_pci ./dxgpmoctl adapter bind "$DXGPMO_SPARE_PCI"

	# vivid again, as two instances: 0 keeps frames in vmalloc buffers (it
	# writes an import through the exporter's vmap), 1 in dma-contig buffers (it
	# also maps the import for its own device).
	if [ -e /kmods/vivid.ko ] && rmmod vivid; then
		check vivid_two_instances insmod /kmods/vivid.ko n_devs=2 \
			allocators=0,1 multiplanar=1,1
	fi
	# The consumer tests use drivers that are modules on Debian's kernels
	# (cirrus, vivid) and are absent from the debug kernel: they skip there.
	# The kernel's fail-nth sweep of the hardening test runs last (below).
	for t in ./dxgpmo_test ./dxgpmo_adl_test ./dxgpmo_map_test ./dxgpmo_dirty_test \
		./dxgpmo_dmabuf_test "./dxgpmo_hardening_test -T kernel_fail_nth_sweep" \
		./dxgpmo_security_test ./dxgpmo_scanout_test ./dxgpmo_capture_test \
		./dxgpmo_pool_test ./dxgpmo_trace_test ./dxgpmo_leak_test; do
		# shellcheck disable=SC2086
		run_test $t
	done

	run_test sh ./dxgpmo_bench_test.sh

	# libdxgk's examples, Windows names only, before the tool's session renames
	# the edu adapters: the mobile GPU's buffer on a physically addressed
	# adapter and on one behind the IOMMU, the live migration on an edu.
	check libdxgk_mobile_gpu_virtual0 ./dxgk-mobile-gpu virtual0
	check libdxgk_mobile_gpu_edu0 ./dxgk-mobile-gpu edu0
	check libdxgk_live_migration_edu0 ./dxgk-live-migration edu0
	# libdxgk's own tests here too, unless the second half runs them.
	[ "$DXGPMO_TESTS_PART" = 1 ] || run_test ./libdxgk_test
	[ "$DXGPMO_TESTS_PART" = 1 ] || run_test ./libdxgk_migration_test
	run_test sh ./dxgpmoctl_test.sh
	# Its monitor over a session of its own, while nothing else runs: the
	# monitors see every process's calls.
	run_test sh ./dxgpmoctl_monitor.sh
	# After the tool's session too: it hands an edu to the generic driver and
	# back, which renames it.
	run_test ./dxgpmo_pci_test
	# After the tool's session, which names edu0 and edu1: one race test unbinds
	# and rebinds an edu device, which comes back as a new adapter.
	run_test ./dxgpmo_race_test
	# The in-kernel API's sample client takes the second edu device, runs,
	# unloads with and without its client closed, and gives the device back;
	# the counters and kmemleak below see what it left.
	run_test sh ./dxgpmo_client_sample.sh
	# The same device for the Windows-named sample KMD, then back again.
	run_test sh ./dxgkrnl_sample.sh
	check counters_zero_after_tests live_counters_zero
	# debug kernel: nothing leaked since the module was loaded
	kmemleak_check kmemleak_empty
}

# The second half: the checks of unload and reload, the 2 MiB granules, the
# lifetime tests and, last, the kernel's fail-nth sweep (it turns DMA-API
# debugging off).  A boot of its own starts it with libdxgk's tests (their
# resource-steady pairs are half of the pairs' time), with the spare device
# bound as the first half has it.
tests_second_half() {
	if [ "$DXGPMO_TESTS_PART" = 2 ]; then
		check bind_spare_pci ./dxgpmoctl adapter bind "$DXGPMO_SPARE_PCI"
		run_test ./libdxgk_test
		run_test ./libdxgk_migration_test
	fi
	# Unload empties the pool of switched pages: 64 MiB left in it come back
	# as free memory (a quarter may have gone elsewhere meanwhile).
	./dxgpmo_pool_test -t holds_64_mib > /dev/null
	pool_kb=$(awk '$1 == "pages" { print $2 * 4 }' /sys/kernel/debug/dxgpmo/pool)
	pool_cap=$(awk '$1 == "cap_pages" { print $2 }' /sys/kernel/debug/dxgpmo/pool)
	free_kb=$(awk '$1 == "MemFree:" { print $2 }' /proc/meminfo)
	# rmmod is refused while a file is open, works after it is closed.
	exec 3<>/dev/dxgpmo
	check rmmod_refused_while_open sh -c '! rmmod dxgpmo 2>/dev/null'
	exec 3>&-
	check rmmod rmmod dxgpmo
	# No pool where the linear map stays write-back (arm64: its cap is 0).
	if [ "$pool_cap" = 0 ]; then
		echo "dxgpmo-check: SKIP pool_freed_at_rmmod (no pool on this architecture)"
	else
		# shellcheck disable=SC2016
		check pool_freed_at_rmmod awk -v pool="$pool_kb" -v before="$free_kb" \
			'$1 == "MemFree:" { exit !(pool >= 65536 && $2 - before >= pool * 3 / 4) }' \
			/proc/meminfo
	fi
	# what the module lost a reference to while loaded (an adapter, a
	# device) is unreferenced once the module is gone
	kmemleak_check kmemleak_empty_after_rmmod
	check reload insmod ./dxgpmo.ko virtual_adapters=2
	check reload_rmmod rmmod dxgpmo
	# 2 MiB dirty pages, tracked by write faults on granules; nothing larger.
	check refuses_4mib_dirty_pages sh -c \
		'! insmod ./dxgpmo.ko dirty_page_size=4194304 2>/dev/null'
	check reload_2mib_dirty_pages insmod ./dxgpmo.ko debug_ioctls=1 \
		dirty_page_size=2097152
	run_test ./dxgpmo_granule_test
	check counters_zero_after_granule_tests live_counters_zero
	kmemleak_check kmemleak_empty_after_granule_tests
	check rmmod_after_granule_tests rmmod dxgpmo
	# Last, destructive: reloads the module itself (its open must be the first)
	# and hot-removes an edu device under live objects, then rescans.
	run_test ./dxgpmo_lifetime_test
	check rmmod_after_lifetime rmmod dxgpmo

	# The kernel's fail-nth sweep fails the allocations of the DMA API's own
	# debugging too, which then turns itself off for the rest of the boot
	# ("dma-debug disabled"): on a debug kernel it comes after every test that
	# maps for DMA, and they must all have run with it on.
	check dma_debug_on_through_tests sh -c '! dmesg | grep -q "dma-debug disabled"'
	check reload_for_kernel_sweep insmod ./dxgpmo.ko debug_ioctls=1
	run_test ./dxgpmo_hardening_test -t kernel_fail_nth_sweep
	check counters_zero_after_kernel_sweep live_counters_zero
	kmemleak_check kmemleak_empty_after_kernel_sweep
	check rmmod_after_kernel_sweep rmmod dxgpmo
}

case $DXGPMO_TESTS_PART in
1)
	tests_first_half
	check dma_debug_on_through_first_half sh -c \
		'! dmesg | grep -q "dma-debug disabled"'
	check rmmod_after_first_half rmmod dxgpmo
	;;
2)
	tests_second_half
	;;
*)
	tests_first_half
	tests_second_half
	;;
esac
dump_dmesg
