#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/layering.sh -q on small trees (module/, its tables in
# layers.rst).  "good" is one, and must pass, silent.  Every other case is
# "good" with one rule broken, CASE/change.diff (git apply -p2; made with
# git diff --no-index good CASE), and must fail with the lines its
# CASE/expect describes, one extended regular expression a line: each must
# match a line of the failure and each line of the failure one of them,
# so that a case that fails for another reason, or for one more, fails
# the run too.
#
# scripts/layering-tests/run.sh [-q] [CASE...]  (-q: the failures only;
# CASE: a directory here, every one by default)
set -eu

quiet=
if [ "${1:-}" = -q ]; then
	quiet=1
	shift
fi

here=$(cd "$(dirname "$0")" && pwd)
layering=$here/../layering.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ $# -eq 0 ]; then
	for c in "$here"/*/; do
		set -- "$@" "$(basename "$c")"
	done
fi

passed=0
failed=0
for name; do
	c=$here/$name
	rm -rf "$tmp/tree"
	cp -R "$here/good" "$tmp/tree"
	rc=0
	if [ "$name" != good ] &&
	   ! (cd "$tmp/tree" && git apply -p2 "$c/change.diff"); then
		failed=$((failed + 1))
		echo "FAIL $name: its change.diff does not apply to good"
		continue
	fi
	# From the tree's directory, so that the messages name layers.rst
	# alone, as the patterns do.
	(cd "$tmp/tree" && "$layering" -q -t layers.rst module) \
		> "$tmp/out" 2> "$tmp/err" || rc=$?
	if [ "$name" = good ]; then
		if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ]; then
			result=
		else
			result="fails (exit $rc):
$(cat "$tmp/err")"
		fi
	elif [ ! -f "$c/expect" ]; then
		result="no expect"
	elif [ "$rc" -eq 0 ]; then
		result="passes, expected to fail"
	else
		# The patterns none of the output matched, then the output
		# no pattern matched.
		result=$(awk '
			FILENAME == ARGV[1] { pattern[++n] = $0; next }
			{
				hit = 0
				for (i = 1; i <= n; i++)
					if ($0 ~ pattern[i])
						hit = matched[i] = 1
				if (!hit)
					print "unexpected: " $0
			}
			END {
				for (i = 1; i <= n; i++)
					if (!(i in matched))
						print "missing: " pattern[i]
			}' "$c/expect" "$tmp/err")
		if [ "$rc" -ne 1 ]; then
			result="exit $rc
$result"
		fi
	fi
	if [ -z "$result" ]; then
		passed=$((passed + 1))
		[ -n "$quiet" ] || echo "ok $name"
	else
		failed=$((failed + 1))
		echo "FAIL $name: $result" >&2
	fi
done
if [ "$failed" -ne 0 ]; then
	echo "layering-tests: $passed passed, $failed failed" >&2
	exit 1
fi
[ -n "$quiet" ] || echo "layering-tests: $passed passed, $failed failed"
