# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The cpufreq scenario's first steps: the two clusters' OPP tables read
# back from the guest's device tree, the policies the sample made of
# them, and each cluster's table and hardware as the sample starts.
# Functions only, on lib.sh's helpers.

# The two clusters' tables, read back from the guest's device tree.
# Fails when the steps after it have nothing to work from.
check_tables() {
	why=
	for c in 0 2; do
		use_cluster "$c"
		w="the cluster of cpu$c:"
		[ -n "$TDIR" ] || why="${why}cpu@$c has no operating-points-v2 table; "
		[ "$N" -ge 3 ] || why="${why}$w $N OPPs ('$PAIRS'), the scenario needs 3; "
		[ -n "$SUSP" ] || why="${why}$w no opp-suspend OPP; "
		! grep -q bad "$TMP/opps.$c" || why="${why}$w $(grep bad "$TMP/opps.$c"); "
		[ -n "$CLK" ] || why="${why}$w no clock in $STATE; "
		[ -n "$REG" ] || why="${why}$w no regulator opp-vdd-cluster$((c / 2)); "
		note "cpu$c's cluster: ${TDIR##*/}, OPPs (kHz uV) $PAIRS, boost '$TURBO', suspend $SUSP, latency $LAT ns, clock $CLK, rail ${REG##*/}"
	done
	result cpufreq_dt_tables_read "$why"
	[ -z "$why" ]
}

# A policy for each cluster's two CPUs, none for the second CPU alone,
# as the library's sharers say too. P0TOP: policy0's maximum, which
# what is done to the other cluster must leave alone.
# shellcheck disable=SC2034 # P0TOP: the cap and boost steps'
check_policies() {
	why=
	for c in 0 2; do
		POL=$CPUFREQ/policy$c
		[ -d "$POL" ] || why="${why}no $POL; "
		want scaling_driver opp-cpufreq
		want affected_cpus "$c $((c + 1))"
		want related_cpus "$c $((c + 1))"
	done
	for c in 1 3; do
		[ ! -e "$CPUFREQ/policy$c" ] || why="${why}a policy$c; "
	done
	sh=$(tr -s ' ' <"$DBG/opp_library/sharers" 2>&1 | tr '\n' '|')
	[ "$sh" = "cpu0 cpu1|cpu2 cpu3|" ] ||
		why="${why}the library's sharers: '$sh' (want 'cpu0 cpu1|cpu2 cpu3|'); "
	result cpufreq_two_policies_of_two_cpus "$why"
	P0TOP=$(get "$CPUFREQ/policy0/cpuinfo_max_freq")
}

# The first cluster (use_cluster 0) as the sample starts: cpufreq's
# view of its table, the performance governor at the top.
check_initial_table() {
	why=
	want scaling_available_frequencies "$ALL"
	want cpuinfo_min_freq "$MIN"
	want cpuinfo_max_freq "$TOP"
	want scaling_min_freq "$MIN"
	want scaling_max_freq "$TOP"
	want cpuinfo_transition_latency "$LAT"
	want scaling_governor performance
	want scaling_cur_freq "$TOP"
	want_hw "$TOP"
	want_state suspend_khz "$SUSP"
	result cpufreq_initial_table_from_dt "$why"
}

# The second cluster (use_cluster 2, set_topall) as the sample starts:
# its own table, clock and rail, its boost OPPs offered apart.
check_cluster1_table() {
	why=
	want scaling_available_frequencies "$ALL"
	want scaling_boost_frequencies "$TURBO"
	want cpuinfo_min_freq "$MIN"
	want cpuinfo_max_freq "$TOP"
	want cpuinfo_transition_latency "$LAT"
	want scaling_governor performance
	want scaling_cur_freq "$TOP"
	want_hw "$TOP"
	want_lib "$TOPALL"
	want_state suspend_khz "$SUSP"
	result cpufreq_cluster1_table_from_dt "$why"
}

# The two policies, their tables and hardware, the library's sharers.
demo_tables() {
	step "two clusters, two policies: OPPs from the device tree (operating-points-v2)"
	for c in 0 2; do
		use_cluster "$c"
		echo "  -- policy$c: ${TDIR#"$DT"/}, shared by CPUs $(rd affected_cpus)"
		show scaling_driver related_cpus cpuinfo_min_freq cpuinfo_max_freq \
			cpuinfo_transition_latency scaling_available_frequencies \
			scaling_boost_frequencies scaling_governor scaling_cur_freq
		echo "  the table (kHz uV min max turbo suspend):"
		sed 's/^/    /' "$TMP/opps.$c"
		echo "  read back: $(hw)"
	done
	echo "  $DBG/opp_library/sharers:"
	sed 's/^/    /' "$DBG/opp_library/sharers"
}
