#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages, as make check tests them on the host (no VM): make
# deb's build and lintian (deb-build.sh), the documents and examples the
# packages carry, then, in the trixie build root and in the bookworm one,
# each through an overlay that is thrown away, apt-get install of the four
# packages with the root's kernel headers there, what they install used
# (samples/*/ built as out-of-tree kernel clients against them, and the
# examples as a porter builds them, among it), and apt-get purge, which
# must leave no file behind (deb-root-test.sh).  One "deb: PASS|FAIL name" line each,
# which make check counts.
#
# It also readies the DKMS-built-module smoke boot that make check runs
# (scripts/guest/deb-smoke-job.sh): build/deb/smoke/ gets the module as
# DKMS built it in the trixie root (its kernel is make check's newest) and
# dxgpmoctl from the dxgpmo-tools package, and in smoke/samples the
# sample kernel clients built there against the installed packages;
# build/deb/smoke.status says ok or fail, for the boot to wait on.
set -u

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
[ $# -eq 0 ] || usage_error "no arguments"

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
out=$build/deb
# shellcheck source=kernels.sh
. "$top/scripts/kernels.sh"
status=0

# The smoke boot waits for this file: never leave it missing.
smoke_status=fail
trap 'mkdir -p "$out"; echo "$smoke_status" > "$out/smoke.status"' EXIT

"$top/scripts/deb-build.sh" || status=1
[ -n "$(echo "$out"/dxgpmo-dkms_*_all.deb)" ] &&
	[ -f "$(echo "$out"/dxgpmo-dkms_*_all.deb)" ] || exit 1

# Beside the programs and the library, what a reader needs, as the tree
# has it: libdxgk-dev's porting guide (gzipped) and examples with the
# makefile that builds them with pkg-config, dxgpmo-tools' sample
# dxgpmoctl session.  deb-root-test.sh builds the examples installed.
# in_deb PACKAGE PATH: PATH's contents in PACKAGE's .deb
in_deb() {
	dpkg-deb --fsys-tarfile "$(echo "$out/$1"_*.deb)" 2> /dev/null |
		tar -xOf - ".$2" 2> /dev/null
}
rc=0
doc=/usr/share/doc/libdxgk-dev
for file in porting.rst.gz:Documentation/porting.rst \
	examples/Makefile:userspace-tools/examples/pkg-config.mk \
	examples/dxgk-mobile-gpu.c:userspace-tools/examples/dxgk-mobile-gpu.c \
	examples/dxgk-live-migration.c:userspace-tools/examples/dxgk-live-migration.c \
	examples/example_checks.h:userspace-tools/examples/example_checks.h; do
	case $file in
	*.gz:*) in_deb libdxgk-dev "$doc/${file%%:*}" | gzip -dc ;;
	*) in_deb libdxgk-dev "$doc/${file%%:*}" ;;
	esac | cmp -s - "$top/${file#*:}" ||
		{ echo "libdxgk-dev: $doc/${file%%:*} is not ${file#*:}"; rc=1; }
done
in_deb dxgpmo-tools /usr/share/doc/dxgpmo-tools/examples/demo.dxgpmo |
	cmp -s - "$top/scripts/demo.dxgpmo" ||
	{ echo "dxgpmo-tools: no examples/demo.dxgpmo as scripts/demo.dxgpmo"
	  rc=1; }
if [ "$rc" -eq 0 ]; then
	echo "deb: PASS the porting guide and examples in libdxgk-dev, demo.dxgpmo in dxgpmo-tools"
else
	echo "deb: FAIL the porting guide and examples in libdxgk-dev, demo.dxgpmo in dxgpmo-tools"
	status=1
fi

cp "$top/scripts/deb-root-test.sh" "$out/"
mkdir -p "$out/lib"
cp "$top/scripts/lib/usage.sh" "$out/lib/"
# The sample kernel clients' sources (samples/*/, without what a build in
# the tree left), which deb-root-test.sh builds against the installed
# packages.
rm -rf "$out/samples-src"
mkdir -p "$out/samples-src"
for dir in "$top"/samples/*/; do
	(cd "$dir" && tar -c --exclude='*.o' --exclude='*.ko' --exclude='*.mod' \
		--exclude='*.mod.c' --exclude='.*.cmd' --exclude=modules.order \
		--exclude=Module.symvers .) |
		{ mkdir -p "$out/samples-src/$(basename "$dir")" &&
		  tar -x -C "$out/samples-src/$(basename "$dir")"; }
done
for name in trixie bookworm; do
	root=$build_root
	[ "$name" = trixie ] || root=$bookworm_root
	state=$out/$name-overlay
	rm -rf "$state"
	if [ ! -f "$root/.dxgpmo-root" ]; then
		echo "deb: FAIL $name: no build root at $root: run make deps"
		status=1
		continue
	fi
	start=$(date +%s)
	in_overlay "$root" "$state" "$out" sh /dxgpmo/deb-root-test.sh "$name" \
		> "$out/$name.log" 2>&1
	rc=$?
	grep '^deb: ' "$out/$name.log"
	grep -q "^deb: FAIL $name" "$out/$name.log" ||
		[ "$rc" -eq 0 ] ||
		{ tail -n 20 "$out/$name.log"
		  echo "deb: FAIL $name: deb-root-test.sh exited $rc"; }
	[ "$rc" -eq 0 ] || status=1
	echo "deb: $name: $(($(date +%s) - start)) s"
	rm -rf "$state"
done

# The smoke boot's files, decompressed for busybox's insmod; the sample
# clients built against the packages in the trixie root, in smoke/samples.
mkdir -p "$out/smoke"
rm -rf "$out/smoke/tools" "$out/smoke/samples"
mkdir -p "$out/smoke/samples"
for ko in "$out"/trixie/samples/*.ko; do
	[ ! -f "$ko" ] || cp "$ko" "$out/smoke/samples/"
done
for ko in "$out"/trixie/dxgpmo.ko*; do
	break
done
case $ko in
*.ko) cp "$ko" "$out/smoke/dxgpmo.ko" ;;
*.ko.xz) xz -dc "$ko" > "$out/smoke/dxgpmo.ko" ;;
*.ko.zst) zstd -qdc "$ko" > "$out/smoke/dxgpmo.ko" ;;
*.ko.gz) gzip -dc "$ko" > "$out/smoke/dxgpmo.ko" ;;
*) rm -f "$out/smoke/dxgpmo.ko" ;;
esac
"$top/scripts/version.sh" > "$out/smoke/version"
dpkg-deb -x "$(echo "$out"/dxgpmo-tools_*.deb)" "$out/smoke/tools" &&
	cp "$out/smoke/tools/usr/bin/dxgpmoctl" "$out/smoke/dxgpmoctl" &&
	[ -s "$out/smoke/dxgpmo.ko" ] && smoke_status=ok
rm -rf "$out/smoke/tools"
exit "$status"
