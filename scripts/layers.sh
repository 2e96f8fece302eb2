#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/layers.sh DIR [OBJECT...]: the library's layering, read from its
# compiled objects in DIR. The objects are the top Kbuild's opp-y list, in
# its order, bottom layer first (or the OBJECTs given, in theirs): a
# function an object calls (an undefined symbol of its own) that a later
# object defines is a call going back up, and is printed, one line each.
# Data shared through opp_internal.h (the update lock, the table list) is
# not a call and is not judged. Exits non-zero on any finding, or when an
# object is missing.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

[ $# -ge 1 ] || die "usage: $0 DIR [OBJECT...]"
dir=$1
shift
order=("$@")
if [ ${#order[@]} -eq 0 ]; then
	mapfile -t order < <(layer_order)
	[ ${#order[@]} -gt 1 ] || die "no opp-y list in $TOP/Kbuild"
fi
nm=${CROSS_COMPILE}nm

# Each object's rank, then each function's defining object: T is a global
# function (W too, for one the compiler may emit weak).
declare -A rank owner
for i in "${!order[@]}"; do
	o=${order[$i]}
	[ -f "$dir/$o" ] || die "no $o in $dir (build the modules first)"
	rank[$o]=$i
	while read -r _ type sym; do
		case "$type" in
		T|W) owner[$sym]=$o ;;
		esac
	done < <("$nm" --defined-only "$dir/$o")
done

found=0
for o in "${order[@]}"; do
	while read -r sym; do
		def=${owner[$sym]:-}
		[ -n "$def" ] || continue
		if [ "${rank[$def]}" -gt "${rank[$o]}" ]; then
			echo "${o%.o}: calls $sym of ${def%.o}, a layer above it"
			found=$((found + 1))
		fi
	done < <("$nm" --undefined-only "$dir/$o" | awk '{ print $2 }')
done
[ "$found" -eq 0 ]
