# SPDX-License-Identifier: GPL-2.0
# Sourced by the VM scripts: which kernels to test, and building the module
# for one of them out of a copy of the sources (so builds for different
# kernels never share object files).

# Newest installed Debian 6.1 and 6.12 kernels that have headers.
default_test_kernels() {
	for series in 6.1 6.12; do
		ls /lib/modules 2>/dev/null | grep "^$series[.-]" |
			grep -- '-amd64$' | sort -V |
			while read -r k; do
				[ -d "/lib/modules/$k/build" ] && echo "$k"
			done | tail -n 1
	done
}

# build_module KVER OUTDIR: leaves OUTDIR/dxgpmo.ko; fails on any warning.
build_module() {
	src=$2/src
	mkdir -p "$src"
	cp -r "$top/Kbuild" "$top/module" "$top/uapi" "$src/"
	make -C "${DXGPMO_KERNEL_BUILD:-/lib/modules/$1/build}" M="$src" W=1 C=1 \
		modules > "$2/kbuild.log" 2>&1 ||
		{ cat "$2/kbuild.log"; return 1; }
	cat "$2/kbuild.log"
	if grep -E 'warning:|error:' "$2/kbuild.log"; then
		return 1
	fi
	cp "$src/module/dxgpmo.ko" "$2/dxgpmo.ko"
}
