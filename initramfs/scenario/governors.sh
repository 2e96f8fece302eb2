# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The cpufreq scenario's governor steps, on the cluster that use_cluster
# chose: powersave, userspace (lib.sh's setspeed_each), ondemand idle and
# under load, cpufreq's stats. Functions only, on lib.sh's helpers.

# powersave: the bottom of the table, the hardware there.
check_powersave() {
	why=
	set_gov powersave
	want scaling_cur_freq "$MIN"
	want_hw "$MIN"
	result cpufreq_powersave_goes_lowest "$why"
}

# Every OPP in turn, each one a transition in cpufreq's stats: the
# policy was made while the cluster's clock ran at the test
# provider's boot rate, no OPP of the table; stats made at a
# frequency off their table count nothing, ever (and 6.1's reset of
# them reads time_in_state[-1]).
check_cluster1_stats() {
	t0=$(get "$POL/stats/total_trans")
	setspeed_each cpufreq_cluster1_setspeed
	set_gov performance
	why=
	t1=$(get "$POL/stats/total_trans")
	[ "$t1" -ge $((t0 + N)) ] 2>/dev/null ||
		why="stats/total_trans '$t0' -> '$t1' over $N setspeeds; "
	result cpufreq_cluster1_stats_count_transitions "$why"
}

# ondemand on its own, over three windows of 4 s (it samples every
# 20 ms): idle, with every CPU busy, idle again. Measured with
# cpufreq's time_in_state and the driver's transitions over each
# window alone, and with no fork inside a window but the sleep's (a
# poll that forks is load enough to move ondemand in the guest).
# ondemand samples a CPU only when the scheduler calls its hook (a
# tick, a wakeup), so tickless idle CPUs may hold it where it was for
# seconds, and the guest's idle is noisy (its virtual CPUs share the
# host's): an idle window once had a mean of 46 MHz on a 30-50 MHz
# table, another 76% of its time at the top. So the checks are on the
# time spent, against the quieter of the two idle windows: under load
# most of it at the top and the mean a quarter of the table's range
# above that idle one; each window makes moves (the load at least
# one up), and the one after the load leaves the top.
# shellcheck disable=SC2154 # window sets mean, at_min, at_top, trans, n1
check_ondemand_follows_load() {
	why=
	q=$(((TOP - MIN) / 4000))
	set_gov ondemand
	# The switch leaves the policy at performance's top: the idle
	# baseline starts once ondemand has left it.
	left=0
	while read -r c <"$POL/scaling_cur_freq" && [ "$c" = "$TOP" ]; do
		[ "$left" -ge 200 ] && break
		left=$((left + 1))
		sleep 0.1
	done
	[ "$c" != "$TOP" ] ||
		why="${why}idle: still at the top 20 s after the switch; "
	note "ondemand left performance's top after $((left / 10)).$((left % 10)) s"
	window 4
	idle_mean=$mean
	note "ondemand, idle: mean $mean MHz, $at_min% at the bottom, $at_top% at the top, $trans transitions"
	[ "$trans" -gt 0 ] || why="${why}idle: no transition; "
	# ondemand may reach the top before the busy window opens and rightly
	# stay there: its move up is counted from the moment the load starts.
	read -r c0 <"$POL/scaling_cur_freq"
	n_load=$(state_of transitions)
	spin_start "$(grep -c '^processor' /proc/cpuinfo)"
	window 4
	busy_mean=$mean
	read -r c <"$POL/scaling_cur_freq"
	spin_stop
	up=$((n1 - n_load))
	note "ondemand, busy: mean $mean MHz, $at_min% at the bottom, $at_top% at the top, $trans transitions ($up since the load began at $c0 kHz), now at $c kHz"
	[ "$at_top" -ge 50 ] || why="${why}busy: $at_top% of the time at the top; "
	[ "$up" -gt 0 ] || [ "$c0" = "$TOP" ] ||
		why="${why}busy: no move up from $c0 kHz; "
	window 4
	note "ondemand, idle again: mean $mean MHz, $at_min% at the bottom, $at_top% at the top, $trans transitions"
	[ "$mean" -lt "$busy_mean" ] ||
		why="${why}idle again: mean $mean MHz, busy $busy_mean; "
	[ "$trans" -gt 0 ] || why="${why}idle again: no transition; "
	[ "$mean" -lt "$idle_mean" ] && idle_mean=$mean
	[ "$busy_mean" -ge $((idle_mean + q)) ] ||
		why="${why}busy: mean $busy_mean MHz, the quieter idle window's $idle_mean; "
	result cpufreq_ondemand_follows_load "$why"
}

# ondemand under load runs at the policy's maximum: it follows each
# cap down at once, and up at its next sample. Every CPU spins: a
# single spinner may run on the other cluster's CPUs.
check_ondemand_busy_follows_caps() {
	why=
	spin_start "$(grep -c '^processor' /proc/cpuinfo)"
	wait_cur "$TOP" 10 || why="${why}busy: at '$c' (want $TOP); "
	t0=$(state_of transitions)
	n=0
	for f in $BTOP $LOW2 $TOP $MIN $MID $TOP $BTOP $TOP; do
		cap "$f"
		wait_cur "$f" 10 ||
			why="${why}busy under cap $f: at '$c' after 10 s; "
		n=$((n + 1))
	done
	t1=$(state_of transitions)
	spin_stop
	[ $((t1 - t0)) -ge "$n" ] ||
		why="${why}$((t1 - t0)) transitions for $n caps; "
	want scaling_max_freq "$TOP"
	set_gov performance
	want scaling_cur_freq "$TOP"
	result cpufreq_ondemand_busy_follows_caps "$why"
}

# powersave, userspace at a few frequencies, performance.
demo_governors() {
	step "policy0 (the board's oscillator): powersave, userspace, performance"
	for g in powersave userspace; do
		echo "$g" >"$POL/scaling_governor"
		[ "$g" = powersave ] && echo "  powersave: scaling_cur_freq $(rd scaling_cur_freq), read back $(hw)"
	done
	for f in $LOW2 $BTOP $MID; do
		echo "$f" >"$POL/scaling_setspeed"
		printf '  setspeed %-8s -> scaling_cur_freq %s, read back %s\n' \
			"$f" "$(rd scaling_cur_freq)" "$(hw)"
	done
	echo performance >"$POL/scaling_governor"
	echo "  performance: scaling_cur_freq $(rd scaling_cur_freq), read back $(hw)"
}

# ondemand over three windows of cpufreq stats: idle, busy, idle.
# shellcheck disable=SC2154 # window sets mean, at_min, at_top, trans
demo_ondemand() {
	step "policy0, ondemand: 3 s idle, 3 s with every CPU busy, 3 s idle (cpufreq stats)"
	echo ondemand >"$POL/scaling_governor"
	for phase in idle busy idle; do
		[ "$phase" = busy ] && spin_start "$(grep -c '^processor' /proc/cpuinfo)"
		window 3
		spin_stop
		printf '  %-5s mean %4s MHz, %3s%% of the time at %s kHz, %3s%% at %s kHz, %s transitions\n' \
			"$phase" "$mean" "$at_min" "$MIN" "$at_top" "$TOP" "$trans"
	done
	echo performance >"$POL/scaling_governor"
}

# What cpufreq's stats of policy0 counted over the story.
demo_stats() {
	step "time in each state of policy0, in 10 ms units (cpufreq stats)"
	use_cluster 0
	sed 's/^/  /' "$POL/stats/time_in_state"
	show stats/total_trans
}
