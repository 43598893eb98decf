#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make deb-smoke: make check's deb-smoke boot alone.  Runs deb-check.sh
# (make deb, then the packages installed, used and purged in both build
# roots) unless build/deb/smoke.status already says ok
# (DXGPMO_DEB_REUSE=1), then boots the trixie root's kernel (the newest
# test kernel, which make deps caches) with the module as dxgpmo-dkms's
# DKMS built it there, the packaged dxgpmoctl and the sample kernel
# clients built against the packages there
# (scripts/guest/deb-smoke-job.sh).  Prints the boot's results; fails
# when one failed or the guest did not finish.  The guest log stays in
# build/deb-smoke/deb-smoke.log.
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
[ $# -eq 0 ] || usage_error "no arguments"

# shellcheck source=vm-lib.sh
. "$(dirname "$0")/vm-lib.sh"
# (deb_smoke_samples)
# shellcheck source=lib/deb-lane.sh
. "$vm_scripts/lib/deb-lane.sh"
vm_prepare

kver=
for k in $(default_amd64_kernels); do
	! cached_kernel "$k" > /dev/null || kver=$k
done
[ -n "$kver" ] || { echo "deb-smoke: no cached trixie kernel: run make deps" >&2; exit 1; }
if [ -z "${DXGPMO_DEB_REUSE:-}" ] ||
   [ "$(cat "$build/deb/smoke.status" 2>/dev/null)" != ok ]; then
	"$top/scripts/deb-check.sh" || true
fi
[ "$(cat "$build/deb/smoke.status" 2>/dev/null)" = ok ] ||
	{ echo "deb-smoke: deb-check.sh made no DKMS-built module" >&2; exit 1; }
out=$build/deb-smoke
rm -rf "$out"
mkdir -p "$out"
echo "deb-smoke: booting $kver with the module DKMS built in the trixie root"
# shellcheck disable=SC2046
vm_job "$kver" "$out" deb-smoke "" "$top/scripts/guest/deb-smoke-job.sh" \
	"$build/deb/smoke/dxgpmo.ko" "$build/deb/smoke/dxgpmoctl" \
	"$build/deb/smoke/version" $(deb_smoke_samples) || true
log=$out/deb-smoke.log
grep '^dxgpmo-check: ' "$log" || true
# (check.sh also fails a boot on these kernel-log lines)
bad=$(grep -E '(BUG:|BUG at|WARNING:|Oops|DMAR:.*[Ff]ault|KASAN|general protection|Call Trace:)' "$log" || true)
[ -z "$bad" ] || echo "$bad"
if grep -q '^dxgpmo-vm: job exit' "$log" &&
   grep -q '^dxgpmo-check: PASS' "$log" &&
   ! grep -q '^dxgpmo-check: FAIL' "$log" && [ -z "$bad" ]; then
	echo "deb-smoke: passed"
else
	echo "deb-smoke: failed; see ${log#"$top"/}" >&2
	exit 1
fi
