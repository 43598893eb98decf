# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by the scripts the documentation names: -h and --help print the
# comment at the top of the script, its own account of what it does and
# how it is called, so that the two cannot drift apart; a call with
# missing or unknown arguments prints that comment's "usage:" lines
# instead of failing on the first parameter that is not set.

# script_header SCRIPT: the comment after the #! and SPDX lines, up to
# the first line that is not a comment, without its "# ".
script_header() {
	awk 'NR == 1 && /^#!/ { next }
	     !/^#/ { exit }
	     /SPDX-License-Identifier|^# shellcheck / { next }
	     { sub(/^# ?/, ""); print }' "$1" | sed '1{/^$/d;}'
}

# usage_help ARG...: with -h or --help first, the header on standard
# output, and exit 0.
usage_help() {
	case ${1:-} in
	-h|--help)
		script_header "$0"
		exit 0
		;;
	esac
}

# usage_error [MESSAGE]: MESSAGE, then the header's "usage:" lines (its
# first paragraph when it has none) on standard error; exit 2.
usage_error() {
	[ -z "${1:-}" ] || echo "${0##*/}: $1" >&2
	{
		script_header "$0" | awk '/^usage:/ { u = 1 } u && /^$/ { exit }
			u { print }' | grep . ||
			script_header "$0" | sed '/^$/,$d'
		echo "(${0##*/} --help says more)"
	} >&2
	exit 2
}
