#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make deb: the four packages of debian/control, built with
# "dpkg-buildpackage -us -uc -b" in a copy of the tree under build/deb/
# (dpkg-buildpackage writes its output next to the tree it builds, and
# the copy keeps the tree free of debian/'s build files), then lintian on
# them.  build/deb/ keeps the .debs (and the -dbgsym ones of the two
# architecture-dependent packages), the .changes and .buildinfo,
# build.log and lintian.log.  One "deb: PASS|FAIL name" line each, which
# make check counts with deb-check.sh's.
#
# lintian fails on an error or a warning: the ones accepted are
# overridden, each with its reason, in debian/*.lintian-overrides.
set -u

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
[ $# -eq 0 ] || usage_error "no arguments"

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
out=$build/deb
status=0

result() {
	if [ "$1" -eq 0 ]; then
		echo "deb: PASS $2"
	else
		echo "deb: FAIL $2"
		status=1
	fi
}

ver=$("$top/scripts/version.sh") || exit 1
rm -rf "$out"
src=$out/src/dxgpmo-$ver
mkdir -p "$src"
# The tree as it is (committed or not), without the build directory and
# git's; dpkg-buildpackage's clean step removes what a build in the tree
# left (debian/rules' override_dh_auto_clean).
(cd "$top" && tar -c --exclude=./build --exclude=./.git .) | tar -x -C "$src"
: "${DEB_BUILD_OPTIONS=parallel=$(nproc)}"
export DEB_BUILD_OPTIONS
(cd "$src" && dpkg-buildpackage -us -uc -b) > "$out/build.log" 2>&1
rc=$?
[ "$rc" -eq 0 ] || tail -n 30 "$out/build.log"
mv "$out"/src/*.deb "$out"/src/*.changes "$out"/src/*.buildinfo "$out/" \
	2>/dev/null
rm -rf "$out/src"
# the four of debian/control (dh_strip adds the -dbgsym ones)
debs=0
for deb in "$out"/*.deb; do
	case $deb in
	*-dbgsym_*|*'*.deb') ;;
	*) debs=$((debs + 1)) ;;
	esac
done
[ "$rc" -ne 0 ] || [ "$debs" -eq 4 ] || { echo "$debs packages, not 4"; rc=1; }
result "$rc" "build (dpkg-buildpackage -us -uc -b, $debs packages)"
[ "$rc" -eq 0 ] || exit 1

# Every tag at every level is printed (info and pedantic too), but only
# errors and warnings fail: the overrides say why each one is accepted.
changes=$(echo "$out"/*.changes)
lintian --display-info --pedantic --show-overrides \
	--fail-on error,warning "$changes" > "$out/lintian.log" 2>&1
rc=$?
# (lintian's note that it runs as root is no finding)
grep -v '^running with root privileges' "$out/lintian.log" | sed "s|$out/||"
result "$rc" lintian
exit "$status"
