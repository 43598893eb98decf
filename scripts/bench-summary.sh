#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# usage: bench-summary.sh build/bench-KVER.json...
#
# One screen after make bench: each performance target of
# Documentation/performance.rst, its worst ratio on each kernel (and the
# size it was at, and that row's spread), and whether the target is met.
# Reads dxgpmo-bench's JSON lines; a target with no row on a kernel (its
# peer skipped, the size not reached) says so instead of passing.  A row
# of pairs whose spread is wider than its distance to the goal is "within
# noise": one more run could read either way.  Rows without a spread
# (JSON of a bench before pairs) are met or missed.
set -eu

# shellcheck source=lib/usage.sh
. "$(dirname "$0")/lib/usage.sh"
usage_help "$@"

[ $# -gt 0 ] || usage_error "no JSON file"

printf '\n%-44s %-22s %8s %7s %10s %7s %s\n' TARGET KERNEL WORST SPREAD AT GOAL \
	VERDICT
for json; do
	kver=${json##*/}
	kver=${kver#bench-}
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
	# target(KEY): keep the worst (largest) ratio of KEY, its size and
	# its spread (-1: the row has none)
	function target(key) {
		if (!(key in worst) || ratio > worst[key])
			keep(key)
	}
	# at_largest(KEY): keep the ratio at the largest size instead
	function at_largest(key) {
		if (!(key in worst) || size >= at[key])
			keep(key)
	}
	function keep(key) {
		worst[key] = ratio
		at[key] = size
		spread_of[key] = spread
	}
	function size_text(size) {
		if (size >= 1048576)
			return (size / 1048576) " MiB"
		return (size / 1024) " KiB"
	}
	function verdict(key, goal,    d) {
		if (goal == "")
			return "(no target)"
		d = worst[key] - goal
		if (spread_of[key] >= 0 && spread_of[key] > (d < 0 ? -d : d))
			return "within noise"
		return d <= 0 ? "met" : "missed"
	}
	function line(key, goal,    sp) {
		if (!(key in worst)) {
			printf "%-44s %-22s %8s %7s %10s %7s %s\n", key, kver, "-",
			       "-", "-", goal == "" ? "-" : "<=" goal,
			       "no rows (peer missing or scenario not run: see the table)"
			return
		}
		sp = "-"
		if (spread_of[key] >= 0)
			sp = sprintf("+-%.2f", spread_of[key])
		printf "%-44s %-22s %7.2fx %7s %10s %7s %s\n", key, kver,
		       worst[key], sp, size_text(at[key]),
		       goal == "" ? "-" : "<=" goal, verdict(key, goal)
	}
	BEGIN {
		# 2 MiB dirty pages are write faults on PMD PFN maps from 6.10
		# (module/Kbuild, DXGPMO_GRANULES); before, the PTE walk.
		split(kver, v, /[.-]/)
		pmd_pfn_maps = !(v[1] ~ /^[0-9]+$/ && v[2] ~ /^[0-9]+$/ &&
				 (v[1] < 6 || (v[1] == 6 && v[2] < 10)))
	}
	# The trace scenario: not a worst ratio but the median of pairs of
	# builds, against the spread of those pairs.
	field("scenario") == "trace" {
		key = "trace events off vs compiled out, " field("what")
		sub(/, events off$/, "", key)
		ntraced++
		traced[key] = sprintf("%-44s %-22s %7.2fx %7s %10s %7s %s",
				      key, kver, number("pair_ratio"),
				      sprintf("+-%.2f", number("spread")), "64 KiB",
				      "noise", field("verdict"))
		next
	}
	{
		scenario = field("scenario"); what = field("what")
		base = field("baseline"); size = number("size")
		ratio = number("ratio"); spread = number("spread")
		if (ratio <= 0)
			next
		if (scenario == "create" && what ~ /^create\+destroy \((cached|wc)\)$/) {
			if (base == "dma-heap system alloc")
				target("create vs system dma-heap, every size")
			if (base == "zeroed pages (floor)" && size >= 1048576)
				target("create vs zeroed pages, from 1 MiB")
		}
		if (scenario == "create" && what == "destroy (non-cached, pooled)" &&
		    base == "destroy (wc, pooled)")
			target("destroy pooled, non-cached vs wc")
		if (scenario == "adl" && what ~ /^ALLOCATE\+FREE_ADL /) {
			if (base == "VFIO type1 MAP+UNMAP") {
				target("ALLOCATE+FREE_ADL vs VFIO type1, every size")
				if (size >= 65536)
					target("ALLOCATE+FREE_ADL vs VFIO type1, 64 KiB+")
			}
			if (base == "iommufd IOAS_MAP+UNMAP")
				target("ALLOCATE+FREE_ADL vs iommufd")
		}
		if (scenario == "adl" && what ~ /^ADL in-module / &&
		    base == "sgtable+array (floor)" && size >= 65536) {
			adapter = field("adapter")
			sub(/[0-9]+$/, "", adapter)
			target("in-module ADL vs floor, 64 KiB+, " adapter)
			kinds[adapter] = 1
		}
		if (scenario == "map" && what ~ /^KMAP_RW (read|write) \(non-cached\)$/ &&
		    base ~ /^KMAP_RW (read|write) \(wc\)$/) {
			op = what
			sub(/ \(non-cached\)$/, "", op)
			target(op ", non-cached vs wc")
		}
		# The target: the period with 2 MiB pages at the largest size;
		# 4 KiB pages against soft-dirty on 4 KiB pages must not worsen.
		if (scenario == "dirty" && what == "START+1/16 writes+query (2 MiB pages)" &&
		    base == "soft-dirty anon 1/16")
			at_largest("dirty period, 2 MiB pages vs soft-dirty huge")
		if (scenario == "dirty" && what == "START+1/16 writes+query") {
			if (base == "soft-dirty anon 1/16")
				at_largest("dirty period, 4 KiB pages vs soft-dirty huge")
			if (base == "soft-dirty 4K pages 1/16")
				target("dirty period, 4 KiB pages vs soft-dirty 4K")
		}
	}
	END {
		line("create vs system dma-heap, every size", "1.00")
		line("create vs zeroed pages, from 1 MiB", "1.25")
		line("destroy pooled, non-cached vs wc", "2.00")
		line("ALLOCATE+FREE_ADL vs VFIO type1, 64 KiB+", "0.80")
		line("ALLOCATE+FREE_ADL vs VFIO type1, every size", "1.00")
		line("ALLOCATE+FREE_ADL vs iommufd", "1.00")
		# virtual: dma-direct, whose floor is a fraction of the fixed
		# cost of an ADL (Documentation/performance.rst)
		for (k in kinds)
			line("in-module ADL vs floor, 64 KiB+, " k,
			     k == "virtual" ? "2.00" : "1.20")
		line("KMAP_RW read, non-cached vs wc", "2.00")
		line("KMAP_RW write, non-cached vs wc", "2.00")
		line("dirty period, 2 MiB pages vs soft-dirty huge",
		     pmd_pfn_maps ? "0.50" : "1.00")
		line("dirty period, 4 KiB pages vs soft-dirty huge", "")
		line("dirty period, 4 KiB pages vs soft-dirty 4K", "")
		for (k in traced)
			print traced[k]
		if (!ntraced)
			printf "%-44s %-22s %8s %7s %10s %7s %s\n", "trace events off vs compiled out",
			       kver, "-", "-", "-", "noise", "no rows (trace scenario not run)"
	}' "$json"
done
