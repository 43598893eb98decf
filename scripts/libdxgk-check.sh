#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# libdxgk on the host, no VM: its header alone compiles as C11 and as C++17
# with -Wall -Wextra -Werror (and -pedantic) and includes nothing but the C
# library; Windows-style code using it compiles as C++ too; the shared
# library, the static one and the examples built on it need nothing beyond
# libc; the ABI is the header's calls (and libdxgk 0.1's DDI names, kept
# as non-default versions); a driver's own DxgkDdi* functions link next to
# either library and stay its own; the unit test (status values, errno
# table, layouts, bad handles, and sessions, fork, ADLs and views against
# a fake dxgpmo); and the tree used before any install, through make env:
# pkg-config, a program and the examples built and started on the tree's
# libdxgk.so.0, the tools and their man pages found.
# One "libdxgk: PASS|FAIL name" line each, which make check counts.
set -u

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
[ $# -eq 0 ] || usage_error "no arguments"

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
CC=${CC:-gcc}
CXX=${CXX:-g++}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

result() {
	if [ "$1" -eq 0 ]; then
		echo "libdxgk: PASS $2"
	else
		echo "libdxgk: FAIL $2"
		status=1
	fi
}

make -s userspace-tools/libdxgk.a userspace-tools/libdxgk.so \
	userspace-tools/examples/dxgk-mobile-gpu \
	userspace-tools/examples/dxgk-live-migration > "$tmp/make.log" 2>&1
rc=$?
cat "$tmp/make.log"
result $rc build

# Only the headers' directory as the package installs it (libdxgk.h and
# dxgk_types.h side by side) is on the include path: anything they need
# beyond the C library would fail to be found.
mkdir "$tmp/inc"
cp userspace-tools/libdxgk.h uapi/dxgk_types.h "$tmp/inc/"
echo '#include "libdxgk.h"' > "$tmp/h.c"
cp "$tmp/h.c" "$tmp/h.cc"
flags="-Wall -Wextra -Werror -pedantic -I$tmp/inc -fsyntax-only"
# shellcheck disable=SC2086
$CC -std=c11 $flags "$tmp/h.c"
result $? header_c11
# shellcheck disable=SC2086
$CXX -std=c++17 $flags "$tmp/h.cc"
result $? header_cxx17

# What it pulls in: the C library's headers, not the kernel's or libdrm's.
# shellcheck disable=SC1003,SC2020
$CC -std=c11 -I"$tmp/inc" -M "$tmp/h.c" | tr ' \\' '\n\n' |
	grep -E '(/linux/|/asm/|/asm-generic/|/drm/|/libdrm/|dxgpmo\.h)' \
	> "$tmp/deps"
if [ -s "$tmp/deps" ]; then
	cat "$tmp/deps"
	result 1 header_libc_only
else
	result 0 header_libc_only
fi

# Windows-style code (designators, flag bits, the unions) as C++17.
cat > "$tmp/use.cc" <<'SRC'
#include "libdxgk.h"
int main()
{
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT Create = {};
	DXGKARGCB_ALLOCATE_ADL AllocateAdl = {};
	Create.Type = DXGK_PHYSICAL_MEMORY_TYPE_CONTIGUOUS_MEMORY;
	Create.CacheType = (DXGK_MEMORY_CACHING_TYPE)MmNonCached;
	Create.ContiguousMemory.HighestAcceptableAddress.QuadPart = 0xFFFFFFFF;
	if (Create.ContiguousMemory.HighestAcceptableAddress.HighPart ||
	    Create.ContiguousMemory.HighestAcceptableAddress.LowPart !=
	    0xFFFFFFFF)
		return 2;
	AllocateAdl.Flags.RequireContiguous = 1;
	AllocateAdl.hAdapterMemoryObject = Create.hAdapterMemoryObject;
	NTSTATUS Status = DxgkCbAllocateAdl(&AllocateAdl);
	if (NT_SUCCESS(Status) && AllocateAdl.pAdl->Flags.Contiguous)
		return (int)(AllocateAdl.pAdl->BasePageNumber << PAGE_SHIFT);
	return Status == STATUS_INVALID_HANDLE ? 0 : 1;
}
SRC
$CXX -std=c++17 -Wall -Wextra -Werror -pedantic -I"$tmp/inc" -o "$tmp/use" \
	"$tmp/use.cc" userspace-tools/libdxgk.a && "$tmp/use"
result $? cxx17_program_links_and_runs

# Dependencies: glibc (libc and its dynamic loader, which holds the TLS
# entry point) and nothing else.
needed() {
	readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
}
rc=0
for f in userspace-tools/libdxgk.so userspace-tools/examples/dxgk-mobile-gpu \
	userspace-tools/examples/dxgk-live-migration; do
	extra=$(needed "$f" | grep -Ev '^(libc\.so\.|ld-linux)' || true)
	if [ -n "$extra" ] || [ -z "$(needed "$f")" ]; then
		echo "$f needs: $(needed "$f" | tr '\n' ' ')"
		rc=1
	fi
done
# Every symbol the static library leaves undefined is libc's, or one of
# its own objects' (one calls another's).
nm -u userspace-tools/libdxgk.a | awk 'NF == 2 { print $2 }' | sort -u \
	> "$tmp/undef"
nm -g --defined-only userspace-tools/libdxgk.a | awk 'NF == 3 { print $3 }' |
	sort -u > "$tmp/own"
ldd userspace-tools/libdxgk.so | grep -oE '/[^ ]+' | while read -r lib; do
	nm -D --defined-only "$lib" | awk '{ print $3 }'
done | sed 's/@.*//' | sort -u > "$tmp/libc"
echo _GLOBAL_OFFSET_TABLE_ >> "$tmp/libc"	# made by the linker
sort -u -o "$tmp/libc" "$tmp/libc"
missing=$(comm -23 "$tmp/undef" "$tmp/libc" | comm -23 - "$tmp/own")
if [ -n "$missing" ]; then
	echo "libdxgk.a needs beyond libc: $missing"
	rc=1
fi
result $rc links_libc_only

# The ABI is libdxgk.h's calls and nothing else, in four lists that must
# name the same functions: the header's declarations (not the inline
# functions LIBDXGK_DDI_NAMES adds), the version script, what the .so
# exports (each at its node's version, the default one) and the static
# library's global names (libdxgk_internal.h's dxgk_* are made local
# there).  The one exception: the DDIs' names of libdxgk 0.1 that
# libdxgk_compat.c keeps, in the version script's LIBDXGK_0 and in the
# .so as non-default versions (name@LIBDXGK_0), in no other list.
sed -n 's/^[A-Za-z_][A-Za-z_0-9 *]*[ *]\(Dxgk[A-Za-z0-9_]*\)(.*/\1/p' \
	userspace-tools/libdxgk.h | sort -u > "$tmp/abi.inline.all"
grep -v '^static inline' userspace-tools/libdxgk.h |
	sed -n 's/^[A-Za-z_][A-Za-z_0-9 *]*[ *]\(Dxgk[A-Za-z0-9_]*\)(.*/\1/p' |
	sort -u > "$tmp/abi.header"
sed -n 's/^LIBDXGK_0_COMPAT(\(Dxgk[A-Za-z0-9_]*\))$/\1/p' \
	userspace-tools/libdxgk_compat.c | sort -u > "$tmp/abi.compat"
awk '/^[A-Z][A-Z0-9_.]* {/ { node = $1 }
	/^[[:space:]]*Dxgk[A-Za-z0-9_]*;$/ { sub(/;/, ""); print $1, node }' \
	userspace-tools/libdxgk.map | sort > "$tmp/abi.map.nodes"
awk '{ print $1 }' "$tmp/abi.map.nodes" | sort -u |
	comm -23 - "$tmp/abi.compat" > "$tmp/abi.map"
nm -D --defined-only userspace-tools/libdxgk.so |
	awk '$2 != "A" { print $3 }' | sort -u > "$tmp/abi.so"
while read -r name node; do
	if grep -qx "$name" "$tmp/abi.compat"; then
		echo "$name@$node"
	else
		echo "$name@@$node"
	fi
done < "$tmp/abi.map.nodes" | sort -u > "$tmp/abi.so.want"
nm -g --defined-only userspace-tools/libdxgk.a |
	awk 'NF == 3 { print $3 }' | sort -u > "$tmp/abi.a"
rc=0
[ -s "$tmp/abi.header" ] || rc=1
# Five, each at LIBDXGK_0, none of them a call of the header.
[ "$(wc -l < "$tmp/abi.compat")" -eq 5 ] || rc=1
grep -v '@@' "$tmp/abi.so.want" | sed 's/@LIBDXGK_0$//' |
	cmp -s - "$tmp/abi.compat" || rc=1
comm -12 "$tmp/abi.header" "$tmp/abi.compat" | grep . && rc=1
for list in map a; do
	cmp -s "$tmp/abi.header" "$tmp/abi.$list" ||
		{ diff "$tmp/abi.header" "$tmp/abi.$list"; rc=1; }
done
cmp -s "$tmp/abi.so.want" "$tmp/abi.so" ||
	{ diff "$tmp/abi.so.want" "$tmp/abi.so"; rc=1; }
result $rc exports_header_calls_only

# A driver's own DDIs next to the library (libdxgk_ddi_names_test.c):
# its five DxgkDdi* functions link with libdxgk.a (no "multiple
# definition") and with libdxgk.so, are the ones its calls reach, and the
# library's calls answer under their DxgkLinux* names.  The .so is found
# by its soname, as an installed one would be.
mkdir "$tmp/lib"
ln -s "$top/userspace-tools/libdxgk.so" "$tmp/lib/libdxgk.so.0"
ln -s libdxgk.so.0 "$tmp/lib/libdxgk.so"
for linkage in static shared; do
	if [ "$linkage" = static ]; then
		set -- userspace-tools/libdxgk.a
	else
		set -- -L"$tmp/lib" -ldxgk
	fi
	if $CC -O2 -Wall -Wextra -Wno-unused-parameter -Werror -Iuapi \
		-Iuserspace-tools -DLINKAGE="\"$linkage\"" \
		-o "$tmp/ddi-$linkage" selftests/libdxgk_ddi_names_test.c "$@"
	then
		LD_LIBRARY_PATH="$tmp/lib" timeout 60 "$tmp/ddi-$linkage"
		result $? "ddi_names_${linkage}_exit"
	else
		result 1 "ddi_names_${linkage}_links"
	fi
done

# A program linked with libdxgk 0.1 binds the DDIs' names at LIBDXGK_0 and
# still runs; a link made now finds no such name in the .so, and one with
# LIBDXGK_DDI_NAMES gets them from the header (C and C++).
# main.c: the call by its old name; old.c: declared as libdxgk 0.1 did,
# bound at LIBDXGK_0 as a link then did; new.c: declared, linked now;
# compat.c: from the header, with LIBDXGK_DDI_NAMES.
cat > "$tmp/main.c" <<'SRC'
int main(void)
{
	return DxgkDdiStartDirtyTracking(0, 0) != STATUS_INVALID_HANDLE;
}
SRC
decl='NTSTATUS DxgkDdiStartDirtyTracking(HANDLE hAdapter, HANDLE hMemoryBasis);'
{
	echo '#include "libdxgk.h"'
	echo "$decl"
	echo '__asm__(".symver DxgkDdiStartDirtyTracking, DxgkDdiStartDirtyTracking@LIBDXGK_0");'
	cat "$tmp/main.c"
} > "$tmp/old.c"
{ echo '#include "libdxgk.h"'; echo "$decl"; cat "$tmp/main.c"; } > "$tmp/new.c"
{
	echo '#define LIBDXGK_DDI_NAMES'
	echo '#include "libdxgk.h"'
	cat "$tmp/main.c"
} > "$tmp/compat.c"
$CC -Wall -Werror -I"$tmp/inc" -o "$tmp/old" "$tmp/old.c" -L"$tmp/lib" \
	-ldxgk && LD_LIBRARY_PATH="$tmp/lib" "$tmp/old" &&
	nm -D "$tmp/old" | grep -q ' U DxgkDdiStartDirtyTracking@LIBDXGK_0$'
result $? old_ddi_names_bind_at_libdxgk_0
! $CC -I"$tmp/inc" -o "$tmp/new" "$tmp/new.c" -L"$tmp/lib" -ldxgk \
	> "$tmp/new.log" 2>&1 && grep -q 'undefined reference' "$tmp/new.log"
result $? new_links_find_no_ddi_names
cp "$tmp/compat.c" "$tmp/compat.cc"
rc=0
$CC -std=c11 -Wall -Wextra -Werror -pedantic -I"$tmp/inc" -o "$tmp/compat" \
	"$tmp/compat.c" userspace-tools/libdxgk.a && "$tmp/compat" || rc=1
$CXX -std=c++17 -Wall -Wextra -Werror -pedantic -I"$tmp/inc" \
	-o "$tmp/compatxx" "$tmp/compat.cc" -L"$tmp/lib" -ldxgk &&
	LD_LIBRARY_PATH="$tmp/lib" "$tmp/compatxx" || rc=1
nm "$tmp/compat" | grep -q ' [TW] DxgkDdi' && rc=1
result $rc ddi_names_opt_in_inline

# dxgpmo.h only for the unit test's fake device; the header never needs it.
# A unit test that crashes or exits non-zero fails on a line of its own,
# whatever PASS lines it printed before.
if $CC -O2 -Wall -Wextra -Werror -Iuserspace-tools -Iuapi -pthread \
	-o "$tmp/unit" selftests/libdxgk_unit_test.c userspace-tools/libdxgk.a
then
	timeout 120 "$tmp/unit"
	result $? unit_test_exit
else
	result 1 unit_test_build
fi

# The tree as a porter uses it before anything is installed (README's
# quick start, Documentation/porting.rst): make tools, then the exports of
# make env.  pkg-config must take the tree's libdxgk-uninstalled.pc over
# any installed libdxgk.pc; a program in the Windows names, built with its
# flags, must start on the tree's libdxgk.so.0 (no node at the path it
# opens: STATUS_NO_SUCH_DEVICE is the library answering, a missing soname
# would be the loader's exit 127); the examples must build with their
# makefile as libdxgk-dev ships it; PATH and MANPATH must find the tree's
# tools and pages.  Last: the exports stay in this shell.
make -s tools > "$tmp/tools.log" 2>&1
rc=$?
cat "$tmp/tools.log"
result $rc tree_make_tools
exports=$(make -s env 2> "$tmp/env.err")
rc=$?
echo "$exports"
cat "$tmp/env.err"
[ "$rc" -eq 0 ] && [ ! -s "$tmp/env.err" ] && eval "$exports"
result $? tree_make_env
tree=$top/userspace-tools
flags=$(pkg-config --cflags --libs libdxgk 2>&1)
echo "pkg-config --cflags --libs libdxgk: $flags"
pkg-config --uninstalled libdxgk &&
	[ "$(pkg-config --modversion libdxgk)" = "$(scripts/version.sh)" ] &&
	case " $flags " in
	*" -I$tree "*" -L$tree "*) ;;
	*) false ;;
	esac
result $? tree_pkg_config_uninstalled
cat > "$tmp/port.c" <<'SRC'
#include <stdio.h>
#include <libdxgk.h>

int main(int argc, char **argv)
{
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT Create = { 0 };
	DXGK_LINUX_SESSION *Session;
	NTSTATUS Status;

	Create.Type = DXGK_PHYSICAL_MEMORY_TYPE_MDL;
	Create.CacheType = (DXGK_MEMORY_CACHING_TYPE)MmCached;
	Create.Size = PAGE_SIZE;
	Status = DxgkLinuxOpenSession(argc > 1 ? argv[1] : NULL, &Session);
	printf("%s\n", DxgkLinuxNtStatusName(Status));
	return Status != STATUS_NO_SUCH_DEVICE || Create.Size != 4096;
}
SRC
# shellcheck disable=SC2046
cc -Wall -Wextra -Werror -o "$tmp/port" "$tmp/port.c" \
	$(pkg-config --cflags --libs libdxgk) &&
	"$tmp/port" "$tmp/no-dxgpmo" > "$tmp/port.out" 2>&1
rc=$?
cat "$tmp/port.out" 2>/dev/null
[ "$rc" -eq 0 ] && grep -qx STATUS_NO_SUCH_DEVICE "$tmp/port.out" &&
	ldd "$tmp/port" | grep -q "libdxgk\.so\.0 => $tree/libdxgk\.so\.0 "
result $? tree_program_loads_libdxgk_so_0
mkdir "$tmp/examples"
rc=0
(cd "$tmp/examples" &&
	make -s -f "$tree/examples/pkg-config.mk" CFLAGS='-O2 -Werror') \
	> "$tmp/examples.log" 2>&1 || rc=1
cat "$tmp/examples.log"
for f in dxgk-mobile-gpu dxgk-live-migration; do
	ldd "$tmp/examples/$f" 2>&1 | grep -q "=> $tree/libdxgk\.so\.0 " ||
		rc=1
done
result $rc tree_examples_build_with_pkg_config
[ "$(command -v dxgpmoctl)" = "$tree/dxgpmoctl" ] &&
	[ "$(command -v dxgpmo-bench)" = "$tree/dxgpmo-bench" ]
result $? tree_tools_on_path
# (man-db names a page by the file a link points to)
rc=0
for page in dxgpmoctl dxgpmo-bench; do
	found=$(man -w "$page" 2>&1)
	echo "man -w $page: $found"
	[ -n "$found" ] && [ "$(readlink -f "$found")" = "$tree/$page.1" ] || rc=1
done
result $rc tree_man_pages_on_manpath
exit $status
