#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make run and make shell: boot a test kernel in QEMU with dxgpmo's test
# build loaded and this tree shared into the VM, then run one program and
# exit with its status, or give a shell on the console.
#
# usage: run.sh [-k KVER] [-a ARCH] [-m PARAMS] PROG [ARG...]
#        run.sh --shell [-k KVER] [-a ARCH] [-m PARAMS]
#
#   -k KVER    the test kernel (scripts/kernels.sh), or the start of its
#              name up to a whole number when only one test kernel of
#              ARCH starts so ("6.1", "6.12", "7"); default: the first
#              test kernel of ARCH; a name that is none lists them
#   -a ARCH    amd64 (the default) or arm64; when -k names a kernel, its
#              own
#   -m PARAMS  dxgpmo's module parameters ("debug_ioctls=1")
#   PROG       a program or a script (#!/bin/sh: the guest's shell is
#              busybox's), run as root with ARGs and no input; a name
#              without "/" that is no file here is a command of the
#              guest's PATH ("dxgpmoctl", "strace")
#
# make run PROG=path [ARGS="..."] [KERNEL=kver] [ARCH=amd64|arm64]
# [PARAMS="..."] and make shell [KERNEL=kver] [ARCH=...] call this.
#
# In the guest:
#   /tree        this tree, read-write over 9p; the working directory
#                is the one run.sh is called in when that is in the tree
#                (make run: the top), else the program's own directory
#   /prog        PROG's directory, when it is outside the tree
#   /dxgpmo/run  build/run/KVER: dxgpmo.ko as loaded, the samples'
#                dxgpmo_sample_edu.ko and dxgkrnl_sample_edu.ko
#   PATH         the tree's dxgpmoctl, dxgpmo-bench, libdxgk's examples
#                and the selftests that are built, gdb, strace, busybox;
#                LD_LIBRARY_PATH has libdxgk.so.0 and the host's
#                libraries the program and the tools need
# The guest is booted as make check boots it (vm-boot.sh: TCG, 2 vCPUs,
# 3 GiB, q35 with an emulated VT-d and two edu devices; arm64: virt with
# an SMMUv3), plus the 9p folders.  Every boot builds what changed: the
# module (W=1 and sparse, as make check; its output in
# build/run/KVER/build.log), the tools, and once per kernel the image
# (busybox, gdb and strace, the 9p modules).  The guest's serial log is
# build/run/KVER/run.log (shell.log for the shell): the program's output,
# then the kernel log.
#
# The program's output is shown as the guest prints it; the status is
# the program's, or 125 when the guest ended without one (a panic, the
# timeout: DXGPMO_VM_TIMEOUT, 900 s by default).  arm64 programs run
# under the arm64 kernel: build them for aarch64, statically (as make
# check builds its own, aarch64-linux-gnu-gcc -static); the tree's tools
# are built so for it in build/run/arm64-user, /dxgpmo/user in the
# guest.  The shell: exit (or
# Ctrl-D) powers the VM off; Ctrl-A X quits QEMU at any time.
#
# DXGPMO_RUN_MODULES=DIR takes dxgpmo.ko and the samples from DIR, built
# for KVER, instead of building them (make check passes its own build).
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"

mode=run kver='' run_arch='' modparams=''
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage_help "$1" ;;
	--shell) mode=shell ;;
	-k) [ $# -ge 2 ] || usage_error "-k needs a kernel"; kver=$2; shift ;;
	-a) [ $# -ge 2 ] || usage_error "-a needs amd64 or arm64"; run_arch=$2; shift ;;
	-m) [ $# -ge 2 ] || usage_error "-m needs parameters"; modparams=$2; shift ;;
	--) shift; break ;;
	-*) usage_error "unknown option $1" ;;
	*) break ;;
	esac
	shift
done
if [ "$mode" = run ]; then
	if [ $# -eq 0 ] || [ -z "$1" ]; then
		usage_error "no program (make run PROG=path)"
	fi
else
	[ $# -eq 0 ] || usage_error "the shell takes no program"
fi
case $run_arch in
''|amd64|arm64) ;;
*) usage_error "-a $run_arch: amd64 or arm64" ;;
esac
# make passes its command line's variables to the programs it runs, which
# the kernel's own make would read (ARCH=amd64 is no kernel architecture).
unset ARCH KERNEL PROG ARGS PARAMS MAKEFLAGS MAKELEVEL MFLAGS

# shellcheck source=vm-lib.sh
. "$(dirname "$0")/vm-lib.sh"
top=$(cd "$vm_scripts/.." && pwd)
build=${BUILD:-$top/build}
here=$(pwd)

# pick_kernel: sets kver to the kernel asked for (kernel_asked): a test
# kernel of any architecture by its name, or one of run_arch (amd64
# unless -a) by the start of its name, cut after a whole number ("6.1",
# "6.12", "7"), when only one starts so; without -k, the first of
# run_arch.  Empty when there is none such.
kernel_asked=$kver
pick_kernel() {
	pk_mine=$(default_test_kernels "${run_arch:-amd64}")
	if [ -z "$kernel_asked" ]; then
		kver=$(echo "$pk_mine" | head -n 1)
	elif default_test_kernels amd64 arm64 | grep -qxF "$kernel_asked"; then
		kver=$kernel_asked
	else
		# "6.1" is 6.1.0-50-amd64, not 6.12.95+deb12-amd64
		kver=$(echo "$pk_mine" | awk -v p="$kernel_asked" 'index($0, p) == 1 &&
			substr($0, length(p), 2) !~ /^[0-9][0-9]$/')
		[ "$(echo "$kver" | grep -c .)" -eq 1 ] || kver=''
	fi
}
pick_kernel
# make deps when something the boot needs is missing (it takes half a
# minute even when nothing is): on a new machine, the kernels themselves.
needs_deps() {
	[ -n "$kver" ] || return 0
	command -v "qemu-system-$([ "$(kernel_arch "$kver")" = arm64 ] &&
		echo aarch64 || echo x86_64)" > /dev/null || return 0
	[ -e "$(kernel_image "$kver")" ] || return 0
	[ -x "$(debug_tools_root "$(kernel_arch "$kver")")/root/usr/bin/gdb" ] ||
		return 0
	[ -d "$(linux_source_files)" ] || return 0
	return 1
}
# A name that is no test kernel where there are some is a mistake, which
# make deps would not mend.
if [ -n "$kver" ] || [ -z "$(default_test_kernels "${run_arch:-amd64}")" ]; then
	if needs_deps; then
		"$vm_scripts/deps.sh"
		pick_kernel
	fi
fi
if [ -z "$kver" ]; then
	echo "run: ${kernel_asked:+$kernel_asked: }no test kernel${kernel_asked:+, or more than one, is so named}${run_arch:+ for $run_arch}; they are:" >&2
	default_test_kernels amd64 arm64 | sed 's/^/  /' >&2
	exit 2
fi
if [ -n "$run_arch" ] && [ "$(kernel_arch "$kver")" != "$run_arch" ]; then
	usage_error "-k $kver is an $(kernel_arch "$kver") kernel, not $run_arch"
fi
run_arch=$(kernel_arch "$kver")

# The program: a file here, else a command of the guest's PATH.
prog='' prog_dir='' prog_guest=''
if [ "$mode" = run ]; then
	prog=$1
	shift
	if [ -f "$prog" ]; then
		prog_dir=$(cd "$(dirname "$prog")" && pwd)
		prog=$prog_dir/$(basename "$prog")
		# An ELF of the other architecture would fail as "not found".
		case $run_arch:$(file -b "$prog") in
		amd64:ELF*aarch64* | arm64:ELF*x86-64*)
			usage_error "$prog is $(file -b "$prog" | cut -d, -f1-2), not for $run_arch"
			;;
		esac
		case $prog in
		"$top"/*) prog_guest=/tree/${prog#"$top"/} prog_dir= ;;
		*) prog_guest=/prog/$(basename "$prog") ;;
		esac
	else
		case $prog in
		*/*) usage_error "$prog: no such file" ;;
		esac
		prog_guest=$prog
	fi
fi

out=$build/run/$kver
mkdir -p "$out"
# One boot of a kernel at a time: its module, image and run directory are
# shared.
exec 9> "$out/.lock"
if ! flock -n 9; then
	echo "run: waiting for another make run or make shell on $kver" >&2
	flock 9
fi

# shown PATH: PATH as the caller reads it, from the top of the tree when
# run there (make run), else in full.
shown() {
	if [ "$here" = "$top" ]; then
		echo "${1#"$top"/}"
	else
		echo "$1"
	fi
}

# stamp FILE...: the names, then the files under them with their
# contents' hashes, for a hash that changes when any of them does.
stamp() {
	for st_f; do
		echo "$st_f"
	done
	find "$@" -type f -exec sha256sum {} + | LC_ALL=C sort -k 2
}

# The module and the samples, rebuilt when their sources changed.
if [ -n "${DXGPMO_RUN_MODULES:-}" ]; then
	cp "$DXGPMO_RUN_MODULES/dxgpmo.ko" "$DXGPMO_RUN_MODULES/dxgpmo_sample_edu.ko" \
		"$DXGPMO_RUN_MODULES/dxgkrnl_sample_edu.ko" "$out/"
	echo "run: dxgpmo (test build) from $DXGPMO_RUN_MODULES" >&2
	# not this tree's build: the next run without it builds again
	rm -f "$out/module.stamp"
else
	# build_module's flags are part of the build too.
	module_stamp=$({
		sha256sum < "$vm_scripts/vm-lib.sh"
		cd "$top" && stamp Kbuild module uapi include samples |
			grep -v '\.mod\.c$\|\.o$\|\.ko$\|\.cmd$\|/\.[^/]*$\|Module\.symvers$\|modules\.order$'
	} | sha256sum | cut -c 1-16)
	if [ "$(cat "$out/module.stamp" 2>/dev/null)" != "$module_stamp" ] ||
	   [ ! -f "$out/dxgpmo.ko" ]; then
		echo "run: building dxgpmo (test build) for $kver: $(shown "$out")/build.log" >&2
		rm -f "$out/module.stamp"
		rm -rf "$out/src"
		vm_build "$top" "$kver" "$out" ||
			{ cat "$out/build.log" >&2; exit 1; }
		echo "$module_stamp" > "$out/module.stamp"
	else
		echo "run: dxgpmo (test build) for $kver, unchanged: $(shown "$out")/build.log" >&2
	fi
fi

# The tools: the tree's own for amd64 (make tools), a static aarch64
# copy for arm64, rebuilt when their sources changed.
user_share=
if [ "$run_arch" = amd64 ]; then
	make -s -C "$top" tools > "$out/tools.log" 2>&1 ||
		{ cat "$out/tools.log" >&2; exit 1; }
	user=/tree
else
	user_out=$build/run/arm64-user
	user_stamp=$(cd "$top" && stamp Makefile uapi selftests userspace-tools |
		grep '\.[ch]$\|\.sh$\|\.map$\|Makefile$' | sha256sum | cut -c 1-16)
	if [ "$(cat "$user_out.stamp" 2>/dev/null)" != "$user_stamp" ]; then
		echo "run: building the tools for arm64: $(shown "$user_out").log" >&2
		rm -f "$user_out.stamp"
		build_userspace "$top" "$user_out" > "$user_out.log" 2>&1 ||
			{ cat "$user_out.log" >&2; exit 1; }
		echo "$user_stamp" > "$user_out.stamp"
	fi
	user_share=$user_out
	user=/dxgpmo/user
fi

# The image, once per kernel and change of what it holds.
kmods="virtio_pci 9pnet_virtio 9p"
image_stamp=$({
	echo "$kver $kmods"
	cat "$vm_scripts/mkinitramfs.sh" "$vm_scripts/guest/init" \
		"$vm_scripts/guest/job-lib.sh" "$vm_scripts/guest/run-job.sh" \
		"$(debug_tools_root "$run_arch")/.dxgpmo-complete"
} | sha256sum | cut -c 1-16)
if [ "$(cat "$out/initramfs.stamp" 2>/dev/null)" != "$image_stamp" ]; then
	rm -f "$out/initramfs.stamp"
	echo "run: making the VM's image for $kver: $(shown "$out")/initramfs.log" >&2
	# shellcheck disable=SC2086
	"$vm_scripts/mkinitramfs.sh" --debug-tools "$kver" "$out/initramfs.cpio.gz" \
		"$vm_scripts/guest/run-job.sh" -- $kmods > "$out/initramfs.log" 2>&1 ||
		{ cat "$out/initramfs.log" >&2; exit 1; }
	# The libraries it has, which the run's own need not repeat.
	gzip -dc "$out/initramfs.cpio.gz" | cpio -it --quiet 2>/dev/null |
		sed -n 's|^lib/[^/]*/||p' > "$out/initramfs.libs"
	echo "$image_stamp" > "$out/initramfs.stamp"
fi

# The run's directory: the command, its environment, the libraries.
ctl=$out/ctl
rm -rf "$ctl"
mkdir -p "$ctl/lib"
# quote ARG: ARG as one word of sh.
quote() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}
if [ "$mode" = run ]; then
	{
		printf 'exec %s' "$(quote "$prog_guest")"
		for a; do
			printf ' %s' "$(quote "$a")"
		done
		echo
	} > "$ctl/cmd.sh"
fi
# amd64: the host's libraries the program and the tools need that the
# image lacks (dxgpmoctl's libdrm), as ldd finds them; libdxgk.so.0 is
# the tree's own, in /tree/userspace-tools (as make env has it).
if [ "$run_arch" = amd64 ]; then
	for bin in ${prog:+"$prog"} "$top"/userspace-tools/dxgpmoctl \
		"$top"/userspace-tools/dxgpmo-bench \
		"$top"/userspace-tools/examples/dxgk-*; do
		[ -f "$bin" ] || continue
		ldd "$bin" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 }'
	done | sort -u | while read -r lib; do
		grep -qxF "${lib##*/}" "$out/initramfs.libs" ||
			cp -L "$lib" "$ctl/lib/"
	done
fi
# The guest's working directory: the current one when it is shared.
cwd=/tree
case $here/ in
"$top"/*) cwd=/tree${here#"$top"} ;;
"${prog_dir:-/nonexistent}"/*) cwd=/prog${here#"$prog_dir"} ;;
*)
	case $prog_guest in
	/*) cwd=$(dirname "$prog_guest") ;;
	esac
	;;
esac
rows='' cols=''
if [ "$mode" = shell ] && [ -t 0 ]; then
	read -r rows cols <<SIZE || true
$(stty size 2>/dev/null)
SIZE
fi
path=$user/userspace-tools:$user/userspace-tools/examples:$user/selftests:/usr/bin:/bin
{
	echo "run_mode=$mode"
	echo "run_cwd=$(quote "$cwd")"
	echo "run_prog_share=${prog_dir:+1}"
	echo "run_user_share=${user_share:+1}"
	echo "run_modparams=$(quote "$modparams")"
	echo "run_rows=$rows run_cols=$cols"
	echo "export PATH=$path"
	echo "export LD_LIBRARY_PATH=/dxgpmo/run/ctl/lib:$user/userspace-tools HOME=/tmp"
	echo "export TERM=$(quote "${TERM:-vt100}")"
	echo "export PS1='$kver:\\w# '"
	echo "export DXGPMO_KVER=$kver"
} > "$ctl/run.env"
cat > "$ctl/banner" <<BANNER
dxgpmo shell on $kver ($run_arch): dxgpmo.ko (test build) loaded from /dxgpmo/run,
the tree in /tree, the tools, gdb and strace on PATH.
exit or Ctrl-D powers the VM off; Ctrl-A X quits QEMU.
BANNER

# fsdev TAG DIR: QEMU's arguments sharing DIR as TAG (a "," in an option's
# value is written ",,").
fsdev_args=
fsdev_count=0
fsdev() {
	fsdev_count=$((fsdev_count + 1))
	fsdev_dir=$(printf '%s' "$2" | sed 's/,/,,/g')
	set -- "$1" "$fsdev_dir"
	fsdev_args="$fsdev_args -fsdev local,id=fs$fsdev_count,path=$2,security_model=none"
	fsdev_args="$fsdev_args -device virtio-9p-pci,fsdev=fs$fsdev_count,mount_tag=$1"
}
case $top$out$prog_dir$user_share in
*[[:space:]]*)
	echo "run: a path with a blank cannot be shared: $top" >&2
	exit 2
	;;
esac
fsdev dxgpmo-tree "$top"
fsdev dxgpmo-run "$out"
[ -z "$prog_dir" ] || fsdev dxgpmo-prog "$prog_dir"
[ -z "$user_share" ] || fsdev dxgpmo-user "$user_share"

log=$out/$mode.log
if [ "$mode" = shell ]; then
	echo "run: booting $kver; the guest's console follows (Ctrl-A X quits QEMU)" >&2
	# shellcheck disable=SC2086
	DXGPMO_VM_CONSOLE=stdio DXGPMO_VM_TIMEOUT=${DXGPMO_VM_TIMEOUT:-0} \
		"$vm_scripts/vm-boot.sh" "$kver" "$out/initramfs.cpio.gz" "$log" \
		-- $fsdev_args || true
	echo "run: the guest's log: $(shown "$log")" >&2
	exit 0
fi

# The program's output as the guest prints it: the lines between the
# job's markers, without the serial console's carriage returns.
show_output() {
	awk '{ sub(/\r$/, "") }
	     /^dxgpmo-run: exit [0-9]+$/ { exit }
	     on { print; fflush() }
	     /^dxgpmo-run: begin$/ { on = 1 }'
}
# A guest that dies before the job starts never ran the program: that is
# the emulator (vm_boot in vm-lib.sh), booted again at most twice.
echo "run: booting $kver: $prog_guest${1:+ $*}" >&2
start=$(date +%s)
for attempt in 1 2 3; do
	rm -f "$log"
	# shellcheck disable=SC2086
	"$vm_scripts/vm-boot.sh" "$kver" "$out/initramfs.cpio.gz" "$log" \
		-- $fsdev_args &
	qemu=$!
	tail -s 0.2 -n +1 -F --pid="$qemu" "$log" 2>/dev/null | show_output
	wait "$qemu" && qemu_status=0 || qemu_status=$?
	grep -q '^dxgpmo-vm: job start' "$log" 2>/dev/null && break
	cp "$log" "$out/early-crash-$attempt.log" 2>/dev/null || true
	echo "run: the guest died before the job started (attempt $attempt)" >&2
done
status=$(sed -n 's/\r$//; s/^dxgpmo-run: exit \([0-9][0-9]*\)$/\1/p' "$log" |
	tail -n 1)
if [ -z "$status" ]; then
	# What came before the program was not shown as it came.
	grep -q '^dxgpmo-run: begin' "$log" ||
		tail -n 30 "$log" | sed 's/\r$//' >&2
	why="QEMU exited $qemu_status"
	[ "$qemu_status" -ne 124 ] ||
		why="DXGPMO_VM_TIMEOUT stopped it after ${DXGPMO_VM_TIMEOUT:-900} s"
	echo "run: the guest ended without the program's status ($why); log: $(shown "$log")" >&2
	exit 125
fi
echo "run: $prog_guest exited $status in a boot of $(($(date +%s) - start)) s; log: $(shown "$log")" >&2
exit "$status"
