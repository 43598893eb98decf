# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by make check, make demo and make bench (from scripts/): the one
# way they build the module for a kernel, assemble a job's initramfs and
# boot it.  A job NAME of a kernel lives in one directory OUT: its
# initramfs OUT/NAME.cpio.gz, its serial log OUT/NAME.log, its screen
# directory OUT/NAME.screen.

vm_scripts=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=kernels.sh
. "$vm_scripts/kernels.sh"

# vm_prepare [demo]: installs what is missing (deps.sh [demo]); sets top,
# the tree's top directory, now the working directory, and build, the
# build directory.
# shellcheck disable=SC2034
vm_prepare() {
	top=$(cd "$vm_scripts/.." && pwd)
	build=${BUILD:-$top/build}
	cd "$top" || exit 1
	"$vm_scripts/deps.sh" "$@"
}

# build_module SRC KVER OUT [default|notrace]: builds the test module (DXGPMO_TEST=y,
# module/test.h: DXGPMO_IOC_TEST and its fault injection) and the sample
# kernel client (DXGPMO_SAMPLES=y, samples/) of the tree SRC
# for KVER, or with "default" the module as make install and DKMS build it,
# in a copy under OUT (so builds for different kernels never share object
# files), with W=1 and (not the default build) sparse; leaves OUT/dxgpmo.ko
# (and the samples' OUT/dxgpmo_sample_edu.ko and OUT/dxgkrnl_sample_edu.ko);
# fails on any warning;
# leaves OUT/sparse-not-run if the kernel's make did not run sparse.
# The test build of a kernel with KUnit (CONFIG_KUNIT; make check-debug's,
# none of Debian's) has the KUnit suites (DXGPMO_KUNIT=y, module/kunit/),
# which run when it loads; OUT/kunit says so.
# With "notrace", the test build with the trace events compiled out
# (DXGPMO_NOTRACE=y), dxgpmo-bench's trace baseline.
# DXGPMO_KERNEL_BUILD builds against a kernel tree that is not installed.
# An arm64 kernel (kernels.sh) has it cross-compiled for arm64_kernel_dir: with
# bookworm's aarch64 gcc-12 on the host, or, for headers that ask for
# gcc-14 (trixie's), in the trixie build root with that directory at the
# same path.
build_module() {
	bm_test=DXGPMO_TEST=y bm_samples=DXGPMO_SAMPLES=y bm_trace=DXGPMO_NOTRACE=
	# sparse reads the test build, whose code is the default build's and
	# more (the default build's own lines are the #else stubs of a few
	# headers): the default build runs without it, a third less time.
	bm_checker=C=1
	[ "${4:-}" != default ] ||
		bm_test=DXGPMO_TEST= bm_samples=DXGPMO_SAMPLES= bm_checker=C=0
	# No debug info: it changes no warning, no boot reads it (an oops
	# names functions through kallsyms), and it is a seventh of a build's
	# time and nine tenths of its module (10 of 11 MB).
	bm_nodebug=CONFIG_DEBUG_INFO= bm_nobtf=CONFIG_DEBUG_INFO_BTF_MODULES=
	[ "${4:-}" != notrace ] || bm_trace=DXGPMO_NOTRACE=y
	bm_kunit=DXGPMO_KUNIT=
	rm -f "$3/kunit"
	bm_src=$3/src
	mkdir -p "$bm_src"
	cp -r "$1/Kbuild" "$1/module" "$1/uapi" "$1/include" "$1/samples" \
		"$bm_src/"
	if [ "$(kernel_arch "$2")" = arm64 ]; then
		bm_kernel=$(arm64_kernel_dir "$2")
		bm_kdir=$bm_kernel/usr/src/linux-headers-$2
		# The headers set CROSS_COMPILE from Debian's host type.
		if grep -q 'gcc-14' "$bm_kdir/.kernelvariables"; then
			in_root_bind "$bm_kernel" "$bm_src" make -j"$(nproc)" \
				-C "$bm_kdir" M=/dxgpmo DEB_HOST_ARCH=arm64 \
				DEB_HOST_GNU_TYPE=aarch64-linux-gnu W=1 \
				"$bm_checker" "$bm_nodebug" "$bm_nobtf" \
				"$bm_test" "$bm_samples" "$bm_kunit" "$bm_trace" modules
		else
			make -j"$(nproc)" -C "$bm_kdir" M="$bm_src" \
				DEB_HOST_ARCH=arm64 \
				DEB_HOST_GNU_TYPE=aarch64-linux-gnu W=1 \
				"$bm_checker" "$bm_nodebug" "$bm_nobtf" \
				"$bm_test" "$bm_samples" "$bm_kunit" "$bm_trace" modules
		fi > "$3/kbuild.log" 2>&1
	elif [ -z "${DXGPMO_KERNEL_BUILD:-}" ] && cached_kernel "$2" > /dev/null; then
		in_root "$bm_src" make -j"$(nproc)" -C "/usr/src/linux-headers-$2" \
			M=/dxgpmo W=1 "$bm_checker" "$bm_nodebug" "$bm_nobtf" \
			"$bm_test" "$bm_samples" "$bm_kunit" "$bm_trace" \
			modules > "$3/kbuild.log" 2>&1
	else
		bm_kdir=${DXGPMO_KERNEL_BUILD:-/lib/modules/$2/build}
		if [ "${4:-}" != default ] &&
		   grep -qsx 'CONFIG_KUNIT=[ym]' "$bm_kdir/.config"; then
			bm_kunit=DXGPMO_KUNIT=y
			: > "$3/kunit"
		fi
		# make coverage's counters (DXGPMO_GCOV=y): only for its
		# debug kernel, the one with CONFIG_GCOV_KERNEL.
		make -j"$(nproc)" -C "$bm_kdir" M="$bm_src" W=1 \
			"$bm_checker" "$bm_nodebug" "$bm_nobtf" \
			"$bm_test" "$bm_samples" "$bm_kunit" "$bm_trace" \
			"DXGPMO_GCOV=${DXGPMO_GCOV:-}" modules \
			> "$3/kbuild.log" 2>&1
	fi || { cat "$3/kbuild.log"; return 1; }
	cat "$3/kbuild.log"
	if grep -E 'warning:|error:' "$3/kbuild.log"; then
		return 1
	fi
	# C=1 is dropped with only a make message when the kernel finds the
	# checker unusable: on Debian's 7.x headers always (they lack
	# scripts/checker-valid.sh, and Debian's sparse 0.6.4 cannot parse
	# __typeof_unqual__, which 7.x headers use under sparse).  Say so.
	grep -o 'C=1 specified, but.*' "$3/kbuild.log" > "$3/sparse-not-run" ||
		rm -f "$3/sparse-not-run"
	cp "$bm_src/module/dxgpmo.ko" "$3/dxgpmo.ko"
	rm -f "$3/dxgpmo_sample_edu.ko" "$3/dxgkrnl_sample_edu.ko"
	[ "${4:-}" = default ] ||
		cp "$bm_src/samples/dxgpmo-edu/dxgpmo_sample_edu.ko" \
			"$bm_src/samples/dxgkrnl-edu/dxgkrnl_sample_edu.ko" "$3/"
}

# build_userspace SRC OUT: for the arm64 kernels, the tools and selftests
# of the tree SRC built for aarch64 in a copy under OUT (OUT/selftests,
# OUT/userspace-tools), static, with the cross compiler and make deps'
# arm64 libdrm and json-c, and make deps' kselftest harness: what the
# guest runs (not libdxgk.so, which cannot be static).  For amd64 the
# tree's own make tools selftests builds them in place.
build_userspace() {
	bu_sysroot=$arm64_cache/sysroot
	bu_lib=$bu_sysroot/usr/lib/aarch64-linux-gnu
	rm -rf "$2"
	mkdir -p "$2/scripts" "$2/build"
	cp -r "$1/Makefile" "$1/uapi" "$1/selftests" "$1/userspace-tools" "$2/"
	cp "$1/scripts/kernels.sh" "$2/scripts/"
	# the host's binaries, if the tree has any, are not aarch64 ones
	make -s -C "$2" KDIR=/nonexistent BUILD="$2/build" clean > /dev/null
	cp -r "$(linux_source_files)/kselftest" "$2/build/"
	PKG_CONFIG_LIBDIR=$bu_lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$bu_sysroot \
		make -s -C "$2" -j"$(nproc)" \
		CC="aarch64-linux-gnu-gcc -static -L$bu_lib" selftests \
		userspace-tools/dxgpmoctl userspace-tools/dxgpmo-bench \
		userspace-tools/examples/dxgk-mobile-gpu \
		userspace-tools/examples/dxgk-live-migration
}

# vm_build SRC KVER OUT [default]: build_module with its output in
# OUT/build.log and its verdict, ok or fail, in OUT/build.status (for a
# caller that waits).
vm_build() {
	if build_module "$@" > "$3/build.log" 2>&1; then
		echo ok > "$3/build.status"
	else
		echo fail > "$3/build.status"
		return 1
	fi
}

# vm_initramfs KVER OUT NAME JOB FILE... [-- KMOD...]: OUT/NAME.cpio.gz
# (see mkinitramfs.sh), then OUT/NAME.initramfs saying ok or fail (for a
# caller that waits for it).
vm_initramfs() {
	vi_kver=$1 vi_out=$2 vi_name=$3
	shift 3
	if "$vm_scripts/mkinitramfs.sh" "$vi_kver" "$vi_out/$vi_name.cpio.gz" "$@"
	then
		echo ok > "$vi_out/$vi_name.initramfs"
	else
		echo fail > "$vi_out/$vi_name.initramfs"
		return 1
	fi
}

# vm_wait FILE: until FILE exists and has its word; succeeds if it says
# ok.  The writers' "echo ok > FILE" creates the file empty before it
# writes: a waiter that read it in between took the empty file for a
# failure (seen once: make check ran no boot of one kernel, "its
# initramfs could not be made", the file saying ok a moment later).
vm_wait() {
	while [ ! -s "$1" ]; do
		sleep 0.2
	done
	[ "$(cat "$1")" = ok ]
}

# vm_boot KVER OUT NAME [screen]: boots OUT/NAME.cpio.gz, with a display
# the host looks at if "screen" (vm-boot-screen.sh); returns QEMU's status.
# A guest that dies before the job starts never ran our code: that is the
# emulator, not a result.  It is booted again, at most twice, each early
# log kept.
vm_boot() {
	vb_kver=$1 vb_out=$2 vb_name=$3
	vb_log=$vb_out/$vb_name.log
	for vb_attempt in 1 2 3; do
		# An earlier attempt's log is kept under its own name below.
		rm -f "$vb_log"
		if [ "${4:-}" = screen ]; then
			rm -rf "$vb_out/$vb_name.screen"
			"$vm_scripts/vm-boot-screen.sh" "$vb_out/$vb_name.screen" \
				"$vb_kver" "$vb_out/$vb_name.cpio.gz" "$vb_log"
		else
			"$vm_scripts/vm-boot.sh" "$vb_kver" \
				"$vb_out/$vb_name.cpio.gz" "$vb_log"
		fi && vb_status=0 || vb_status=$?
		# No log at all: QEMU never ran (the screen agent did not
		# start, say), which another attempt does not change.
		[ -f "$vb_log" ] || break
		grep -q '^dxgpmo-vm: job start' "$vb_log" && break
		cp "$vb_log" "$vb_out/$vb_name.early-crash-$vb_attempt.log"
		echo "$vb_kver/$vb_name: guest died before the job started (attempt $vb_attempt, log kept)"
	done
	return "$vb_status"
}

# vm_job KVER OUT NAME DISPLAY JOB FILE... [-- KMOD...]: vm_initramfs, then
# vm_boot; DISPLAY is "screen" or empty.
vm_job() {
	vj_kver=$1 vj_out=$2 vj_name=$3 vj_display=$4
	shift 4
	vm_initramfs "$vj_kver" "$vj_out" "$vj_name" "$@" || return
	vm_boot "$vj_kver" "$vj_out" "$vj_name" "$vj_display"
}
