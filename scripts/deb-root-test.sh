#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The packages installed, used and purged in a build root, as a Debian
# user would: run by deb-check.sh inside the root (through an overlay, so
# the cached root is not changed), with build/deb at /dxgpmo.
#
# usage: deb-root-test.sh NAME   (NAME: trixie or bookworm)
#
# One "deb: PASS|FAIL NAME: what" line each; the lists of the root's files
# before the install and after the purge, their comparison, the logs, the
# module DKMS built (before it goes with the purge) and the test programs
# are left in /dxgpmo/NAME.
set -u

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
[ $# -eq 1 ] || usage_error "one build root's name"

name=$1
out=/dxgpmo/$name
rm -rf "$out"
mkdir -p "$out"
status=0

result() {
	if [ "$1" -eq 0 ]; then
		echo "deb: PASS $name: $2"
	else
		echo "deb: FAIL $name: $2"
		status=1
	fi
}

# run LOG CMD...: CMD with its output in $out/LOG, shown when it fails
run() {
	run_log=$out/$1
	shift
	"$@" > "$run_log" 2>&1 && return 0
	run_status=$?
	tail -n 25 "$run_log"
	return "$run_status"
}

# The root's kernel: the one whose headers make deps installed.
kver=
for dir in /usr/lib/modules/*; do
	[ -e "$dir/build" ] && kver=${dir##*/}
done
debs=$(ls /dxgpmo/dxgpmo-dkms_*_all.deb /dxgpmo/dxgpmo-tools_*.deb \
	/dxgpmo/libdxgk0_*.deb /dxgpmo/libdxgk-dev_*.deb)
ver=$(dpkg-deb -f /dxgpmo/dxgpmo-dkms_*_all.deb Version)
# The module's version: the Debian version without a revision.
mod_ver=${ver%-*}
mod_ver=${mod_ver#*:}
echo "deb: $name: kernel $kver, packages $ver"

# The root's files, but for /proc and /dxgpmo: paths, one a line.
snapshot() {
	find / -xdev \( -path /proc -o -path /dxgpmo \) -prune -o -print |
		LC_ALL=C sort > "$1"
}

snapshot "$out/files.before"

# shellcheck disable=SC2086
run install.log apt-get install -y --no-install-recommends $debs
result $? "apt-get install the four packages"

dkms status -m dxgpmo > "$out/dkms-status.txt" 2>&1
grep -q "^dxgpmo/$mod_ver, $kver, [^:]*: installed" "$out/dkms-status.txt"
result $? "dkms built and installed dxgpmo/$mod_ver for $kver"

ko=$(find "/usr/lib/modules/$kver/updates" -name 'dxgpmo.ko*' 2>/dev/null |
	head -n 1)
[ -n "$ko" ] && modinfo -F version "$ko" | grep -qx "$mod_ver"
result $? "${ko:-no dxgpmo.ko} has MODULE_VERSION $mod_ver"
# The default build: the test build's parameter debug_ioctls is missing.
[ -n "$ko" ] && modinfo -F parm "$ko" > "$out/parm.txt" &&
	grep -q '^virtual_adapters:' "$out/parm.txt" &&
	! grep -q '^debug_ioctls:' "$out/parm.txt"
result $? "the module is the default build, not the test build"
[ -n "$ko" ] && modinfo -F vermagic "$ko" | grep -q "^$kver "
result $? "the module's vermagic is $kver"
# The in-kernel API's header, for drivers built against the installed
# package (below).
grep -q '__dxgpmo_client_open' \
	"/usr/src/dxgpmo-$mod_ver/include/linux/dxgpmo.h"
result $? "/usr/src/dxgpmo-$mod_ver/include/linux/dxgpmo.h declares the in-kernel API"

# What a kernel driver built outside the tree needs, from the installed
# package alone (Documentation/driver-api/dxgpmo-kernel-api.rst): the
# makefile fragment, the headers it points at, and the Module.symvers of
# the module DKMS built for this kernel.
mk=/usr/share/dxgpmo/dxgpmo.mk
symvers=/var/lib/dkms/dxgpmo/$mod_ver/$kver/$(uname -m)/module/Module.symvers
# shellcheck disable=SC2016
grep -q "^DXGPMO_VERSION := $mod_ver\$" "$mk" &&
	grep -q '^KBUILD_EXTRA_SYMBOLS += \$(DXGPMO_SYMVERS)$' "$mk"
result $? "$mk: dxgpmo $mod_ver's include directory and Module.symvers"
grep -q '	__dxgpmo_client_open	.*	EXPORT_SYMBOL_GPL	DXGPMO$' \
	"$symvers" 2> /dev/null
result $? "$symvers: the in-kernel API, in namespace DXGPMO"

# Each sample kernel client of the tree (deb-check.sh copied samples/*/ to
# /dxgpmo/samples-src), built as a driver of its own would be, against the
# installed package only: copied to /tmp in the root, where nothing of
# the tree is, its Kbuild's lines that reach out of its directory
# ($(src)/.., the tree's include/) replaced by the package's fragment;
# W=1, and any warning, modpost's "undefined!" among them, fails it.  The
# modules are left in $out/samples for the smoke boot, which loads them
# with the module DKMS built.
rm -rf "$out/samples" /tmp/dxgpmo-samples
mkdir -p "$out/samples" /tmp/dxgpmo-samples
samples=0
for sample_src in /dxgpmo/samples-src/*/; do
	[ -f "$sample_src/Kbuild" ] || continue
	sample=$(basename "$sample_src")
	samples=$((samples + 1))
	dir=/tmp/dxgpmo-samples/$sample
	cp -R "$sample_src" "$dir"
	# shellcheck disable=SC2016
	grep -v '$(src)/\.\.' "$sample_src/Kbuild" > "$dir/Kbuild"
	echo "include $mk" >> "$dir/Kbuild"
	# shellcheck disable=SC2016
	! grep -q '\.\./' "$dir/Kbuild" &&
		run "sample-$sample.log" make -j"$(nproc)" \
			-C "/usr/lib/modules/$kver/build" M="$dir" W=1 modules &&
		! grep -iE 'warning:|error:|undefined' "$out/sample-$sample.log"
	result $? "sample $sample built against the installed package (W=1, no warning)"
	sample_ok=1
	for ko in "$dir"/*.ko; do
		[ -f "$ko" ] || { sample_ok=0; break; }
		modinfo -F depends "$ko" | tr ',' '\n' | grep -qx dxgpmo &&
			modinfo -F import_ns "$ko" | grep -qx DXGPMO &&
			modinfo -F vermagic "$ko" | grep -q "^$kver " &&
			cp "$ko" "$out/samples/" || sample_ok=0
	done
	[ "$sample_ok" = 1 ]
	result $? "sample $sample: modinfo depends dxgpmo, import_ns DXGPMO, vermagic $kver"
done
[ "$samples" -gt 0 ]
result $? "$samples sample kernel clients built against the package"
rm -rf /tmp/dxgpmo-samples

# The module as DKMS built it, from DKMS's own tree, for the smoke boot
# (make check boots the trixie one).
rm -f "$out"/dxgpmo.ko*
built=$(find "/var/lib/dkms/dxgpmo/$mod_ver/$kver" -name 'dxgpmo.ko*' \
	2>/dev/null | head -n 1)
[ -n "$built" ] && cp "$built" "$out/"

getent group dxgpmo > "$out/group.txt"
result $? "the group dxgpmo exists ($(cut -d: -f3 "$out/group.txt"))"
grep -q '^KERNEL=="dxgpmo", .*GROUP="dxgpmo"' \
	/usr/lib/udev/rules.d/60-dxgpmo.rules
result $? "/usr/lib/udev/rules.d/60-dxgpmo.rules gives the node to dxgpmo"
dpkg-query -W -f='${Conffiles}\n' dxgpmo-dkms |
	grep -q '^ /etc/modprobe.d/dxgpmo.conf ' &&
	modprobe -c | grep -q '^options dxgpmo virtual_adapters=1'
result $? "/etc/modprobe.d/dxgpmo.conf is a conffile modprobe reads"

run help.txt dxgpmoctl --help && grep -q '^usage: dxgpmoctl' "$out/help.txt"
result $? "dxgpmoctl --help"
# The group's members run the tools: a user's PATH (Debian's, no sbin)
# finds them, and man finds their pages in section 1.
[ "$(env -i PATH=/usr/local/bin:/usr/bin:/bin sh -c \
	'command -v dxgpmoctl; command -v dxgpmo-bench')" = \
	"$(printf '/usr/bin/dxgpmoctl\n/usr/bin/dxgpmo-bench')" ] &&
	[ -f /usr/share/man/man1/dxgpmoctl.1.gz ] &&
	[ -f /usr/share/man/man1/dxgpmo-bench.1.gz ]
result $? "dxgpmoctl and dxgpmo-bench on a user's PATH, pages in section 1"
# The completion script where bash-completion looks for it; and, with no
# module loaded here, the hint to load it.
completion=/usr/share/bash-completion/completions/dxgpmoctl
# shellcheck disable=SC2016 # expanded by that bash
bash -c '. "$1"; COMP_WORDS=(dxgpmoctl p); COMP_CWORD=1; _dxgpmoctl
	[ "${COMPREPLY[*]}" = pmo ]' sh "$completion"
result $? "$completion completes dxgpmoctl's objects"
dxgpmoctl adapter list > "$out/no-module.txt" 2>&1
[ $? -eq 1 ] && grep -q 'is the module loaded? (modprobe dxgpmo)$' \
	"$out/no-module.txt"
result $? "dxgpmoctl without the module says to load it"
dxgpmo-bench --help > "$out/bench-help.txt" 2>&1
[ $? -eq 2 ] && grep -q '^usage: dxgpmo-bench' "$out/bench-help.txt"
result $? "dxgpmo-bench --help"

# (pkgconf ends the line with a blank)
flags=$(pkg-config --cflags --libs libdxgk 2> "$out/pkg-config.txt")
echo "$flags" >> "$out/pkg-config.txt"
flags=${flags% }
[ "$flags" = "-I/usr/include/dxgpmo -ldxgk" ] &&
	[ "$(pkg-config --modversion libdxgk)" = "$mod_ver" ]
result $? "pkg-config --cflags --libs libdxgk: $flags"

# A program on both headers, built as the documentation says.  It names
# one of libdxgk's internal functions for itself: linked with libdxgk.a,
# the library's must not clash with it.  /dev/dxgpmo is not there: the
# session fails, with STATUS_NO_SUCH_DEVICE.
cat > "$out/prog.c" <<'SRC'
#include <stdio.h>
#include <dxgpmo.h>
#include <libdxgk.h>

int dxgk_done(void)
{
	return DXGPMO_IOC_CREATE_PMO != 0;
}

int main(void)
{
	DXGK_LINUX_SESSION *session;
	NTSTATUS status = DxgkLinuxOpenSession("/nonexistent", &session);
	const char *status_name = DxgkLinuxNtStatusName(status);

	printf("DxgkLinuxOpenSession: %s\n", status_name ? status_name : "?");
	return !(status == STATUS_NO_SUCH_DEVICE && status_name && dxgk_done());
}
SRC
# shellcheck disable=SC2046
run cc-shared.log cc -Wall -Werror "$out/prog.c" -o "$out/prog" \
	$(pkg-config --cflags --libs libdxgk) &&
	run prog.txt "$out/prog" &&
	ldd "$out/prog" | grep -q 'libdxgk\.so\.0 => /'
result $? "cc prog.c \$(pkg-config --cflags --libs libdxgk), run"
# shellcheck disable=SC2046
run cc-static.log cc -Wall -Werror "$out/prog.c" -o "$out/prog-static" \
	$(pkg-config --cflags libdxgk) -Wl,-Bstatic \
	$(pkg-config --libs-only-l libdxgk) -Wl,-Bdynamic &&
	run prog-static.txt "$out/prog-static" &&
	! ldd "$out/prog-static" | grep -q libdxgk
result $? "the same with libdxgk.a: its internal names stay its own"

# What a porter reads and starts from (deb-check.sh checked the packages
# hold them): the porting guide, gzipped as Debian's policy asks of a
# document over 4 KiB; the examples, built as their Makefile says, from an
# empty directory with the installed libdxgk.pc, started on the installed
# libdxgk.so.0 (no module here: the library answers
# STATUS_NO_SUCH_DEVICE); dxgpmoctl's sample session.
doc=/usr/share/doc/libdxgk-dev
zcat "$doc/porting.rst.gz" 2> /dev/null | grep -q '^Building and linking$' &&
	[ -s /usr/share/doc/dxgpmo-tools/examples/demo.dxgpmo ]
result $? "$doc/porting.rst.gz and /usr/share/doc/dxgpmo-tools/examples/demo.dxgpmo"
rm -rf /tmp/dxgk-examples
mkdir /tmp/dxgk-examples
run examples.log make -C /tmp/dxgk-examples -f "$doc/examples/Makefile" \
	CFLAGS='-O2 -Werror' &&
	ldd /tmp/dxgk-examples/dxgk-mobile-gpu |
	grep -q 'libdxgk\.so\.0 => /' &&
	{ /tmp/dxgk-examples/dxgk-mobile-gpu > "$out/example.txt" 2>&1
	  [ $? -eq 1 ]; } &&
	grep -q '^FAIL: the adapter returns .*STATUS_NO_SUCH_DEVICE' \
		"$out/example.txt"
result $? "make -f $doc/examples/Makefile: built with libdxgk.pc, started on libdxgk.so.0"
rm -rf /tmp/dxgk-examples

run purge.log apt-get purge -y dxgpmo-dkms dxgpmo-tools libdxgk0 libdxgk-dev
result $? "apt-get purge the four packages"
dkms status -m dxgpmo > "$out/dkms-status-after.txt" 2>&1
! grep -q . "$out/dkms-status-after.txt" &&
	[ -z "$(find /usr/lib/modules -name 'dxgpmo.ko*')" ]
result $? "dkms forgot dxgpmo and its module is gone"

# Paths that any package's install and removal may add or take, and that
# are not the packages' files: apt's and dpkg's logs, caches and
# databases (their contents change); shadow's backups of /etc/group and
# /etc/gshadow (the group stays, see debian/dxgpmo-dkms.postinst);
# /run and /tmp, tmpfs on a machine (adduser's lock; and make check's
# dkms-check.sh builds in the same root meanwhile, beneath the overlay);
# DKMS's module signing key, made once for every module and kept (when
# the root has openssl); and depmod's indexes of the root's kernel, whose
# image is not installed there: bookworm's DKMS runs depmod anyway and
# leaves them, trixie's does not (on a machine they are there before and
# after).  Any other path that differs is a file the packages left behind
# or took away.
snapshot "$out/files.after"
ignore='/var/(log/(apt/|dpkg\.log|alternatives\.log)|cache/(apt|debconf)/|lib/(apt|dpkg)/[^/]*$|lib/dkms/mok\.(key|pub)$)|/etc/(group|gshadow|passwd|shadow)-$|/run/|/tmp/|/usr/lib/modules/[^/]*/modules\.[^/]*$'
LC_ALL=C comm -3 "$out/files.before" "$out/files.after" |
	sed 's/^\t/+ /; t; s/^/- /' > "$out/files.diff"
grep -E "^[-+] ($ignore)" "$out/files.diff" > "$out/files.ignored"
grep -vE "^[-+] ($ignore)" "$out/files.diff" > "$out/files.left"
echo "deb: $name: the root's paths before the install: $(wc -l < "$out/files.before"), after the purge: $(wc -l < "$out/files.after"); differing: $(wc -l < "$out/files.ignored") ignored (apt's, dpkg's and depmod's state; + after only, - before only): $(tr '\n' ' ' < "$out/files.ignored")"
sed 's/^/deb: '"$name"': left behind (+) or taken away (-): /' \
	"$out/files.left" | head -n 20
[ ! -s "$out/files.left" ]
result $? "apt-get purge left no file behind and took none away"
exit "$status"
