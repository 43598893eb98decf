#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A Windows driver's memory code ports unchanged: the sample KMD's memory
# code (samples/dxgkrnl-edu/kmd_memory.c) may use Dxgkrnl's interface and
# the WDK's names only.  Fails on any name of dxgpmo's in-kernel API, the
# DMA API, Linux memory management, locking or copying, comments and
# strings aside.  With --self-test, also proves it fails on a planted one.
#
# usage: scripts/windows-names.sh [--self-test] [FILE]
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
case ${1:-} in
-*) [ "$1" = --self-test ] || usage_error "unknown option $1" ;;
esac

top=$(cd "$(dirname "$0")/.." && pwd)
forbidden='\<(dxgpmo_[a-z_]*|dma_[a-z_]*|(k|kv|v)(m|z|c)?alloc[a-z_]*|k(v)?free|alloc_pages?|__free_pages?|struct page|virt_to_[a-z]*|phys_to_[a-z]*|page_to_[a-z]*|pfn_[a-z_]*|ioremap[a-z_]*|mutex_[a-z]*|spin_(un)?lock[a-z_]*|mem(cpy|set|move)|copy_(to|from)_user|get_user_pages[a-z_]*|vm_[a-z_]*|PAGE_SIZE|PAGE_SHIFT|GFP_[A-Z_]*)\>'

check() {
	# Comments and string literals out, then every forbidden name.
	found=$(sed -e 's://.*$::' -e 's:"[^"]*"::g' "$1" |
		perl -0pe 's:/\*.*?\*/::gs' |
		grep -noE "$forbidden" || true)
	if [ -n "$found" ]; then
		echo "windows-names: $1 uses Linux names:" >&2
		echo "$found" >&2
		return 1
	fi
}

file=${2:-${1:-}}
[ "${file:-}" != --self-test ] || file=
file=${file:-$top/samples/dxgkrnl-edu/kmd_memory.c}
check "$file"
if [ "${1:-}" = --self-test ]; then
	tmp=$(mktemp)
	trap 'rm -f "$tmp"' EXIT
	for name in 'memcpy(a, b, 1);' 'dma_map_page(d);' 'kzalloc(1, 0);' \
		    'dxgpmo_client_map(c, m);' 'mutex_lock(l);'; do
		{ cat "$file"; echo "$name"; } > "$tmp"
		if check "$tmp" 2> /dev/null; then
			echo "windows-names: a planted '$name' went unseen" >&2
			exit 1
		fi
	done
fi
