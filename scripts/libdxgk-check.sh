#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# libdxgk on the host, no VM: its header alone compiles as C11 and as C++17
# with -Wall -Wextra -Werror (and -pedantic) and includes nothing but the C
# library; Windows-style code using it compiles as C++ too; the shared
# library, the static one and the examples built on it need nothing beyond
# libc; the unit test (status values, errno table, layouts, bad handles,
# and sessions, fork, ADLs and views against a fake dxgpmo).
# One "libdxgk: PASS|FAIL name" line each, which make check counts.
set -u

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
# name the same functions: the header's declarations, the version script,
# what the .so exports (each at LIBDXGK_0) and the static library's global
# names (libdxgk_internal.h's dxgk_* are made local there).
sed -n 's/^[A-Za-z_][A-Za-z_0-9 *]*[ *]\(Dxgk[A-Za-z0-9_]*\)(.*/\1/p' \
	userspace-tools/libdxgk.h | sort -u > "$tmp/abi.header"
sed -n 's/^[[:space:]]*\(Dxgk[A-Za-z0-9_]*\);$/\1/p' \
	userspace-tools/libdxgk.map | sort -u > "$tmp/abi.map"
nm -D --defined-only userspace-tools/libdxgk.so |
	awk '$2 != "A" { print $3 }' | sort -u > "$tmp/abi.so"
sed 's/$/@@LIBDXGK_0/' "$tmp/abi.map" > "$tmp/abi.so.want"
nm -g --defined-only userspace-tools/libdxgk.a |
	awk 'NF == 3 { print $3 }' | sort -u > "$tmp/abi.a"
rc=0
[ -s "$tmp/abi.header" ] || rc=1
for list in map a; do
	cmp -s "$tmp/abi.header" "$tmp/abi.$list" ||
		{ diff "$tmp/abi.header" "$tmp/abi.$list"; rc=1; }
done
cmp -s "$tmp/abi.so.want" "$tmp/abi.so" ||
	{ diff "$tmp/abi.so.want" "$tmp/abi.so"; rc=1; }
result $rc exports_header_calls_only

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
exit $status
