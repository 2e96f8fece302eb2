# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The cpufreq scenario's energy model step: what the sample registered
# for each cluster, against the device tree's opp-microwatt. Functions
# only, on lib.sh's helpers.

# The energy model the sample registered for each cluster (its
# ->register_em(), opp_of_register_em()), as the kernel's debugfs
# shows it: one state per OPP of the table, at the power the
# device tree gives, over the cluster's CPUs.
check_em() {
	why=
	for c in 0 2; do
		use_cluster "$c"
		d=$EM_DBG/cpu$c
		[ -d "$d" ] || { why="${why}no $d; "; continue; }
		read -r cpus <"$d/cpus"
		[ "$cpus" = "$c-$((c + 1))" ] || why="${why}$d/cpus: $cpus; "
		dt_power >"$TMP/power.$c"
		n=0
		while read -r khz uw; do
			n=$((n + 1))
			if [ -r "$d/ps:$khz/power" ]; then
				read -r pw <"$d/ps:$khz/power"
				[ "$pw" = "$uw" ] ||
					why="${why}cpu$c at $khz kHz: $pw uW, the device tree $uw; "
			else
				why="${why}cpu$c: no state at $khz kHz; "
			fi
		done <"$TMP/power.$c"
		# Boost OPPs have a state too: the model covers every
		# available OPP of the table, as the kernel's registration does.
		all=$(grep -c . "$TMP/opps.$c")
		set -- "$d"/ps:*
		[ "$n" -eq "$all" ] || why="${why}cpu$c: $n OPPs with power of $all; "
		[ $# -eq "$all" ] || why="${why}cpu$c: $# states for $all OPPs; "
		note "cpu$c's energy model: $# states, (kHz uW) $(tr '\n' ' ' <"$TMP/power.$c")"
	done
	result cpufreq_energy_model_from_dt "$why"
}

# The energy model the sample registered for each cluster, state by
# state, beside the power the device tree gives.
demo_energy_model() {
	step "the energy model of each cluster ($EM_DBG), from opp-microwatt"
	for c in 0 2; do
		use_cluster "$c"
		d=$EM_DBG/cpu$c
		[ -d "$d" ] || { echo "  policy$c: no $d"; continue; }
		echo "  $d: CPUs $(cat "$d/cpus")"
		dt_power >"$TMP/power.$c"
		for ps in "$d"/ps:*; do
			echo "${ps##*:}"
		done | sort -n >"$TMP/states.$c"
		while read -r khz; do
			uw=$(sed -n "s/^$khz //p" "$TMP/power.$c")
			printf '    %8s kHz: %7s uW (device tree: %s uW)\n' \
				"$khz" "$(cat "$d/ps:$khz/power")" "${uw:-none}"
		done <"$TMP/states.$c"
	done
}
