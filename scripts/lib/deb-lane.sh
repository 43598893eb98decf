# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by make check (check.sh): the Debian packages' lane.
# deb-check.sh builds, lints, installs, uses and purges the packages in
# the build roots on the host beside the boots; then the smoke boot of the
# module as their DKMS built it.  Apart from the host checks because the
# smoke boot waits for it alone, and from the kernels' boots because its
# kernel is chosen by the trixie root, not by the kernel list.
# check.sh sets top, build, kernel_arches and amd64_kernels, sources
# results.sh, and defines boot_run, before it calls these.
# shellcheck disable=SC2154

# deb_check_start: deb-check.sh, in the background of its own
# (deb_check, empty when it does not run), so that the smoke boot below
# does not wait for the host checks.
deb_check_start() {
	rm -f "$build/deb/smoke.status"
	deb_check=
	if [ -n "${DXGPMO_KERNEL_BUILD:-}" ] ||
	   ! echo "$kernel_arches" | grep -qx amd64; then
		: > "$build/deb.log"
	else
		(
			# At the builds' priority, not below: the smoke boot, which
			# the end of make check waits for, waits for it; at 19 it
			# ran mostly after the boots, one core busy.
			renice -n 10 -p "$(exec sh -c 'echo $PPID')" > /dev/null 2>&1 ||
				true
			"$top/scripts/deb-check.sh" > "$build/deb.log" 2>&1 || true
		) &
		deb_check=$!
	fi
}

# deb_check_count: once deb-check.sh is done, its "deb:" lines, counted.
deb_check_count() {
	[ -z "$deb_check" ] || wait "$deb_check" || true
	count_lines deb
	[ -z "$deb_check" ] || grep -q '^deb: \(PASS\|FAIL\)' "$build/deb.log" ||
		count_failure "deb: deb-check.sh said nothing"
}

# deb_smoke_samples: the sample kernel clients deb-check.sh built against
# the installed packages in the trixie root, which the smoke boot loads.
deb_smoke_samples() {
	for dss_ko in "$build"/deb/smoke/samples/*.ko; do
		[ ! -f "$dss_ko" ] || echo "$dss_ko"
	done
}

# The smoke boot of the module as dxgpmo-dkms's DKMS built it: in the
# trixie build root, for that root's kernel, the newest amd64 one, which
# is the one make deps caches (cached_kernel); with the packaged
# dxgpmoctl and the samples built against the packages.  It waits for deb-check.sh to ready them (build/deb/smoke).
deb_smoke() {
	smoke_kernel=
	for kver in $amd64_kernels; do
		[ -z "$deb_check" ] || ! cached_kernel "$kver" > /dev/null ||
			smoke_kernel=$kver
	done
	if [ -n "$smoke_kernel" ]; then
		smoke_out=$build/$smoke_kernel
		if vm_wait "$build/deb/smoke.status"; then
			# shellcheck disable=SC2046
			vm_initramfs "$smoke_kernel" "$smoke_out" deb-smoke \
				"$top/scripts/guest/deb-smoke-job.sh" \
				"$build/deb/smoke/dxgpmo.ko" "$build/deb/smoke/dxgpmoctl" \
				"$build/deb/smoke/version" $(deb_smoke_samples) \
				> "$smoke_out/deb-smoke.initramfs.log" 2>&1 || true
		else
			echo "deb-check.sh made no DKMS-built module (build/deb.log)" \
				> "$smoke_out/deb-smoke.initramfs.log"
			echo fail > "$smoke_out/deb-smoke.initramfs"
		fi
		boot_run "$smoke_kernel" deb-smoke
		boot_count "$smoke_kernel" deb-smoke \
			"${smoke_kernel}[$(default_platform "$smoke_kernel")]/deb-smoke"
	elif [ -n "$deb_check" ]; then
		echo "deb-smoke: skipped: the trixie root's kernel is not among those tested"
		skipped=$((skipped + 1))
	fi
}
