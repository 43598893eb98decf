#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# usage: debug-kernel.sh [debug|kcsan]
#
# Build, once, a debug kernel from Debian's linux-source-6.12: what the
# selftests need (selftests/config: PCI, intel-iommu, serial console,
# devtmpfs, DRM and vgem built in, fault injection) plus one flavour's
# checkers.  debug (the default, make check-debug and make coverage): KASAN,
# lockdep, kmemleak, DMA-API debugging, DEBUG_VM, KUnit for the module's
# suites, and gcov support, which only a module built with GCOV_PROFILE
# uses.  kcsan (make check-kcsan): the data-race detector, which does not
# mix with KASAN, so a tree of its own.  Each tree
# is cached outside the repository (DXGPMO_CACHE, default
# /var/cache/dxgpmo, as linux-FLAVOUR); a second run only prints the path
# of the built tree.
# When the options changed, they are applied to a copy of the tree's
# .config first: only if that copy differs is the tree reconfigured and
# rebuilt incrementally.
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
[ $# -le 1 ] || usage_error "one flavour at most"
flavour=${1:-debug}

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${DXGPMO_CACHE:-/var/cache/dxgpmo}
tree=$cache/linux-$flavour
stamp=$tree/.dxgpmo-built

# What every flavour has: KUnit, for the module's
# suites (module/kunit/: Debian's kernels have no KUnit), with their
# results in debugfs and none of the kernel's own suites; and neither
# module signing, kernel headers in the image nor debug info, for a faster
# build.
common_config='CONFIG_KUNIT=y
CONFIG_KUNIT_DEBUGFS=y
# CONFIG_KUNIT_ALL_TESTS is not set
# CONFIG_MODULE_SIG is not set
CONFIG_SYSTEM_TRUSTED_KEYS=""
CONFIG_SYSTEM_REVOCATION_KEYS=""
# CONFIG_IKHEADERS is not set
CONFIG_DEBUG_INFO_NONE=y
# CONFIG_DEBUG_INFO_BTF is not set
# CONFIG_DEBUG_INFO_DWARF5 is not set
# CONFIG_DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT is not set'

case $flavour in
debug)
	# GCOV_KERNEL instruments nothing by itself (no GCOV_PROFILE_ALL):
	# it lets make coverage's module build, with GCOV_PROFILE, write its
	# counters to debugfs, at the cost of a few files' rebuild.
	flavour_config='CONFIG_KASAN=y
CONFIG_KASAN_GENERIC=y
CONFIG_KASAN_INLINE=y
CONFIG_PROVE_LOCKING=y
CONFIG_DEBUG_ATOMIC_SLEEP=y
CONFIG_DEBUG_KMEMLEAK=y
# CONFIG_DEBUG_KMEMLEAK_DEFAULT_OFF is not set
CONFIG_DMA_API_DEBUG=y
CONFIG_DEBUG_VM=y
CONFIG_GCOV_KERNEL=y
# CONFIG_GCOV_PROFILE_ALL is not set'
	;;
kcsan)
	# The default KCSAN: reports a race only when a watched value
	# changed, aligned plain word writes assumed atomic, as syzbot runs
	# it; what it reports there is a race the maintainers would take.
	flavour_config='CONFIG_KCSAN=y
# CONFIG_KASAN is not set
# CONFIG_KCSAN_STRICT is not set
CONFIG_KCSAN_REPORT_VALUE_CHANGE_ONLY=y
CONFIG_KCSAN_ASSUME_PLAIN_WRITES_ATOMIC=y
# CONFIG_KCSAN_KUNIT_TEST is not set'
	;;
*)
	usage_error "unknown flavour: $flavour"
	;;
esac
debug_config=$(printf '%s\n%s\n' "$common_config" "$flavour_config")

# Both fragments' options, one a line, sorted: the stamp does not change
# when an option only moves or its comment does.
option_lines() {
	grep -E '^(CONFIG_[A-Za-z0-9_]+=.*|# CONFIG_[A-Za-z0-9_]+ is not set)$' ||
		true
}
test_options=$(option_lines < "$top/selftests/config")
options=$({ echo "$test_options"; echo "$debug_config" | option_lines; } |
	sort -u)
twice=$(echo "$options" |
	sed -E 's/^# (CONFIG_[A-Za-z0-9_]+) is not set$/\1/; s/=.*//' |
	sort | uniq -d)
if [ -n "$twice" ]; then
	echo "$flavour kernel: options set twice: $(echo "$twice" | tr '\n' ' ')" >&2
	exit 1
fi
want=$(echo "$options" | sha256sum | cut -d' ' -f1)

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	echo "$tree"
	exit 0
fi

# The options as arguments of the kernel's scripts/config.
set --
while IFS= read -r line; do
	name=${line#"# "}
	name=${name%%[= ]*}
	name=${name#CONFIG_}
	value=${line#*=}
	case $line in
	"# CONFIG_"*) set -- "$@" --disable "$name" ;;
	*=y) set -- "$@" --enable "$name" ;;
	*=m) set -- "$@" --module "$name" ;;
	*=\"*\") value=${value#\"}; set -- "$@" --set-str "$name" "${value%\"}" ;;
	*) set -- "$@" --set-val "$name" "$value" ;;
	esac
done <<EOF
$options
EOF

missing=
for pkg in linux-source-6.12 bc flex bison libelf-dev libssl-dev; do
	dpkg-query -W -f='${Status}\n' "$pkg" 2>/dev/null |
		grep -q '^install ok installed$' || missing="$missing $pkg"
done
if [ -n "$missing" ]; then
	apt-get update -qq
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $missing >&2
fi

mkdir -p "$cache"
if [ ! -f "$stamp" ]; then
	# A directory of its own: the other flavour may be unpacking too.
	unpack=$(mktemp -d "$cache/unpack-$flavour.XXXXXX")
	rm -rf "$tree"
	tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$unpack" >&2
	mv "$unpack/linux-source-6.12" "$tree"
	rmdir "$unpack"
	make -s -C "$tree" x86_64_defconfig >&2
fi
cd "$tree"
# A build finished with this .config when the stamp is newer than it.
built=
[ -f "$stamp" ] && [ -n "$(find "$stamp" -newer .config)" ] && built=1
candidate=$cache/config-$flavour.candidate
trap 'rm -f "$candidate" "$candidate.old"' EXIT
cp .config "$candidate"
./scripts/config --file "$candidate" "$@"
KCONFIG_CONFIG=$candidate make -s olddefconfig >&2
grep -q '^CONFIG_MAPPING_DIRTY_HELPERS=y' "$candidate" ||
	{ echo "$flavour kernel: MAPPING_DIRTY_HELPERS did not get enabled" >&2; exit 1; }
grep -q '^CONFIG_KUNIT_DEBUGFS=y' "$candidate" ||
	{ echo "$flavour kernel: KUNIT_DEBUGFS did not get enabled" >&2; exit 1; }
# What the tests need and the flavour's checkers must survive the
# dependencies' resolution (a compiler without the checker's support
# would drop it silently).
while IFS= read -r line; do
	grep -qxF "$line" "$candidate" ||
		{ echo "$flavour kernel: $line did not get set" >&2; exit 1; }
done <<EOF
$test_options
$(echo "$flavour_config" | grep '=y$')
EOF
if [ -n "$built" ] && cmp -s "$candidate" .config; then
	echo "$flavour kernel: options changed, its .config did not" >&2
	echo "$want" > "$stamp"
	echo "$tree"
	exit 0
fi
mv "$candidate" .config
start=$(date +%s)
# modules too: they write the Module.symvers external modules link against
nice make -s -j"$(nproc)" bzImage modules >&2
echo "$flavour kernel built in $(($(date +%s) - start)) s" >&2
echo "$want" > "$stamp"
echo "$tree"
