#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dxgpmo's version has one source: MODULE_VERSION in module/main.c (what
# modinfo and /sys/module/dxgpmo/version say).  Two formats repeat it
# because their tools read it only there: PACKAGE_VERSION of
# packaging/dkms.conf (dkms.conf at the top links to it) and the upstream
# part of the newest version in debian/changelog.
#
# usage: version.sh          prints the version
#        version.sh --check  says whether the others agree with it; fails
#                            naming each one that does not (make lint runs
#                            it)
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"
case ${1:-} in
''|--check) ;;
*) usage_error "unknown argument $1" ;;
esac

top=$(cd "$(dirname "$0")/.." && pwd)

ver=$(sed -n 's/^MODULE_VERSION("\([^"]*\)");$/\1/p' "$top/module/main.c")
if [ -z "$ver" ]; then
	echo "version: no MODULE_VERSION(\"...\"); line in module/main.c" >&2
	exit 1
fi
if [ "${1:-}" != --check ]; then
	echo "$ver"
	exit 0
fi

status=0
# agree FILE VALUE: VALUE, read from FILE, is the version
agree() {
	if [ "$2" != "$ver" ]; then
		echo "version: ${1#"$top"/} says '$2', module/main.c's MODULE_VERSION '$ver'" >&2
		status=1
	fi
}
agree "$top/packaging/dkms.conf" \
	"$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/packaging/dkms.conf")"
# "dxgpmo (EPOCH:UPSTREAM-REVISION) ...": the upstream part (a native
# package has no revision)
agree "$top/debian/changelog" "$(sed -n \
	'1s/^[^ ]* (\([0-9]*:\)\{0,1\}\([^)]*\)).*/\2/p' "$top/debian/changelog" |
	sed 's/-[^-]*$//')"
exit "$status"
