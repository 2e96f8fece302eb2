# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The cpufreq scenario's thermal cap steps: the sample's trigger
# (thermal_cap_khz in its debugfs) on the cluster that use_cluster chose,
# against the governors, a user's own maximum, every frequency of the
# table, and the other cluster. Functions only, on lib.sh's helpers (cap,
# cap_is).

# The trigger is root's alone; uncapped, the library offers every OPP.
check_trigger() {
	why=
	m=$(stat -c '%a %u' "$TRIG" 2>&1)
	[ "$m" = "600 0" ] || why="mode/owner '$m' (want '600 0'); "
	m=$(stat -c '%a %u' "$STATE" 2>&1)
	[ "$m" = "400 0" ] || why="${why}state mode/owner '$m'; "
	result cpufreq_trigger_root_only "$why"

	why=
	cap_is "$TOP"
	result cpufreq_library_view_all_available "$why"
}

# Running at the top when the thermal event comes.
check_cap_and_governors() {
	why=
	cap "$BTOP"
	want scaling_max_freq "$BTOP"
	want cpuinfo_max_freq "$TOP"
	want scaling_cur_freq "$BTOP"
	want_hw "$BTOP"
	result cpufreq_thermal_cap_below_top_drops_top_opp "$why"

	why=
	echo "$TOP" 2>/dev/null >"$POL/scaling_setspeed"
	want scaling_cur_freq "$BTOP"
	want_hw "$BTOP"
	result cpufreq_capped_setspeed_clamped "$why"

	why=
	cap "$LOW2"
	want scaling_max_freq "$LOW2"
	want scaling_cur_freq "$LOW2"
	result cpufreq_thermal_cap_second_lowest "$why"

	why=
	set_gov performance
	want scaling_cur_freq "$LOW2"
	want scaling_max_freq "$LOW2"
	result cpufreq_performance_under_cap "$why"

	why=
	cap "$TOP"
	want scaling_max_freq "$TOP"
	want scaling_cur_freq "$TOP"
	result cpufreq_thermal_recovery "$why"
}

# The cap and what others ask for: a governor, a user.
check_cap_and_requests() {
	# The userspace governor's request survives a cap and comes back.
	why=
	set_gov userspace
	echo "$MID" 2>/dev/null >"$POL/scaling_setspeed"
	cap "$LOW2"
	want scaling_cur_freq "$LOW2"
	cap "$TOP"
	want scaling_cur_freq "$MID"
	result cpufreq_setspeed_restored_after_cap "$why"

	# A user's own scaling_max_freq and the thermal cap: the lower wins.
	why=
	echo "$MID" >"$POL/scaling_max_freq"
	cap "$BTOP"
	want scaling_max_freq "$MID"
	cap "$LOW2"
	want scaling_max_freq "$LOW2"
	cap "$TOP"
	want scaling_max_freq "$MID"
	echo "$TOP" >"$POL/scaling_max_freq"
	want scaling_max_freq "$TOP"
	result cpufreq_user_max_and_cap_combine "$why"
}

# Every table frequency, down the table and up again, written the way
# the fuzz below writes (so that its refusals are the trigger's, not
# echo's), with and without a newline, and zero-padded to the longest
# input the trigger takes: each one accepted, each one's effect exact.
check_trigger_table_freqs() {
	why=
	down=
	for f in $ALL; do down="$f${down:+ }$down"; done
	for f in $down $ALL; do
		# shellcheck disable=SC3037 # busybox's echo has -n
		if echo -n "$f" 2>/dev/null >"$TRIG"; then
			cap_is "$f" "$f without newline"
		else
			why="${why}'$f' without newline refused; "
		fi
	done
	for f in "$MID" "$TOP"; do
		p=$(printf '%015d' "$f")
		if echo "$p" 2>/dev/null >"$TRIG"; then
			cap_is "$f" "$p"
		else
			why="${why}'$p' refused; "
		fi
		p=$(printf '%016d' "$f")
		# shellcheck disable=SC3037 # busybox's echo has -n
		if echo -n "$p" 2>/dev/null >"$TRIG"; then
			cap_is "$f" "$p without newline"
		else
			why="${why}'$p' without newline refused; "
		fi
	done
	result cpufreq_trigger_table_freqs_take_effect "$why"
}

# A thermal event on one cluster leaves the other alone.
check_cluster1_cap_alone() {
	why=
	cap "$LOW2"
	want scaling_max_freq "$LOW2"
	want scaling_cur_freq "$LOW2"
	want_hw "$LOW2"
	m=$(get "$CPUFREQ/policy0/scaling_max_freq")
	[ "$m" = "$P0TOP" ] || why="${why}policy0 capped at '$m' too; "
	cap "$TOPALL"
	want scaling_max_freq "$TOP"
	want scaling_cur_freq "$TOP"
	want_hw "$TOP"
	result cpufreq_cluster1_cap_and_recovery_alone "$why"
}

# demo_cap: run at use_cluster 2, set_topall.
demo_cap() {
	step "policy2 (a test clock): thermal event, cap at $LOW2 kHz (echo $LOW2 > $TRIG)"
	echo "$LOW2" >"$TRIG"
	show scaling_available_frequencies scaling_max_freq scaling_cur_freq
	echo "  read back: $(hw); policy0 still at $(get "$CPUFREQ/policy0/scaling_cur_freq") kHz"
	lib_view
	step "bad input is refused and changes nothing"
	for bad in $((LOW2 + 1)) -1 abc "${BTOP}x" ""; do
		if echo "$bad" >"$TRIG" 2>/dev/null; then r=accepted; else r=refused; fi
		printf '  echo %-10s > thermal_cap_khz: %s\n' "'$bad'" "$r"
	done
	show scaling_max_freq
	step "cooled down: lift the cap (echo $TOPALL > $TRIG)"
	echo "$TOPALL" >"$TRIG"
	show scaling_max_freq scaling_cur_freq
	echo "  read back: $(hw)"
}
