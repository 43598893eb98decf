#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# usage: bench-summary.sh build/bench-KVER.json...
#
# One screen after make bench: each performance target of
# Documentation/performance.rst, its worst ratio on each kernel (and the
# size it was at), and whether the target is met.  Reads dxgpmo-bench's
# JSON lines; a target with no row on a kernel (its peer skipped, the
# size not reached) says so instead of passing.
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"

[ $# -gt 0 ] || usage_error "no JSON file"

printf '\n%-44s %-22s %8s %10s %7s %s\n' TARGET KERNEL WORST AT GOAL VERDICT
for json; do
	kver=${json##*/bench-}
	kver=${kver%.json}
	awk -v kver="$kver" '
	function field(name,    v) {
		if (!match($0, "\"" name "\":\"[^\"]*\""))
			return ""
		v = substr($0, RSTART, RLENGTH)
		sub("^\"" name "\":\"", "", v)
		sub("\"$", "", v)
		return v
	}
	function number(name,    v) {
		if (!match($0, "\"" name "\":[0-9.]+"))
			return -1
		v = substr($0, RSTART, RLENGTH)
		sub("^\"" name "\":", "", v)
		return v + 0
	}
	# target(KEY, RATIO, SIZE): keep the worst (largest) ratio of KEY
	function target(key, ratio, size) {
		if (!(key in worst) || ratio > worst[key]) {
			worst[key] = ratio
			at[key] = size
		}
	}
	function size_text(size) {
		if (size >= 1048576)
			return (size / 1048576) " MiB"
		return (size / 1024) " KiB"
	}
	function line(key, goal,    verdict) {
		if (!(key in worst)) {
			printf "%-44s %-22s %8s %10s %7s %s\n", key, kver, "-",
			       "-", "<=" goal, "no rows (peer missing or scenario not run: see the table)"
			return
		}
		verdict = worst[key] <= goal + 0 ? "met" : "missed"
		if (goal == "")
			verdict = "(no target)"
		printf "%-44s %-22s %7.2fx %10s %7s %s\n", key, kver, worst[key],
		       size_text(at[key]), goal == "" ? "-" : "<=" goal, verdict
	}
	# The trace scenario: not a worst ratio but the median of pairs of
	# builds, against the spread of those pairs.
	field("scenario") == "trace" {
		key = "trace events off vs compiled out, " field("what")
		sub(/, events off$/, "", key)
		ntraced++
		traced[key] = sprintf("%-44s %-22s %7.2fx %10s %7s %s (spread +-%.3f)",
				      key, kver, number("pair_ratio"), "64 KiB",
				      "noise", field("verdict"), number("spread"))
		next
	}
	{
		scenario = field("scenario"); what = field("what")
		base = field("baseline"); size = number("size")
		ratio = number("ratio")
		if (ratio <= 0)
			next
		if (scenario == "create" && what ~ /^create\+destroy \((cached|wc)\)$/) {
			if (base == "dma-heap system alloc")
				target("create vs system dma-heap, every size", ratio, size)
			if (base == "zeroed pages (floor)" && size >= 1048576)
				target("create vs zeroed pages, from 1 MiB", ratio, size)
		}
		if (scenario == "adl" && what ~ /^ALLOCATE\+FREE_ADL /) {
			if (base == "VFIO type1 MAP+UNMAP")
				target("ALLOCATE+FREE_ADL vs VFIO type1", ratio, size)
			if (base == "iommufd IOAS_MAP+UNMAP")
				target("ALLOCATE+FREE_ADL vs iommufd", ratio, size)
		}
		if (scenario == "adl" && what ~ /^ADL in-module / &&
		    base == "sgtable+array (floor)" && size >= 65536) {
			adapter = field("adapter")
			sub(/[0-9]+$/, "", adapter)
			target("in-module ADL vs floor, 64 KiB+, " adapter, ratio, size)
			kinds[adapter] = 1
		}
		# The target: the period with 2 MiB pages at the largest size;
		# 4 KiB pages against soft-dirty on 4 KiB pages must not worsen.
		if (scenario == "dirty" && what == "START+1/16 writes+query (2 MiB pages)" &&
		    base == "soft-dirty anon 1/16" && size >= largest_huge) {
			largest_huge = size
			worst["dirty period, 2 MiB pages vs soft-dirty huge"] = ratio
			at["dirty period, 2 MiB pages vs soft-dirty huge"] = size
		}
		if (scenario == "dirty" && what == "START+1/16 writes+query") {
			if (base == "soft-dirty anon 1/16" && size >= largest_dirty) {
				largest_dirty = size
				worst["dirty period, 4 KiB pages vs soft-dirty huge"] = ratio
				at["dirty period, 4 KiB pages vs soft-dirty huge"] = size
			}
			if (base == "soft-dirty 4K pages 1/16")
				target("dirty period, 4 KiB pages vs soft-dirty 4K", ratio, size)
		}
	}
	END {
		line("create vs system dma-heap, every size", "1.00")
		line("create vs zeroed pages, from 1 MiB", "1.25")
		line("ALLOCATE+FREE_ADL vs VFIO type1", "1.00")
		line("ALLOCATE+FREE_ADL vs iommufd", "1.00")
		for (k in kinds)
			line("in-module ADL vs floor, 64 KiB+, " k, "1.10")
		line("dirty period, 2 MiB pages vs soft-dirty huge", "0.50")
		line("dirty period, 4 KiB pages vs soft-dirty huge", "")
		line("dirty period, 4 KiB pages vs soft-dirty 4K", "")
		for (k in traced)
			print traced[k]
		if (!ntraced)
			printf "%-44s %-22s %8s %10s %7s %s\n", "trace events off vs compiled out",
			       kver, "-", "-", "noise", "no rows (trace scenario not run)"
	}' "$json"
done
