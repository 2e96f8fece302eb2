# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The cpufreq scenario's boost steps, on the second cluster (use_cluster
# 2, set_topall): the turbo OPPs on and off, and a cap across what makes
# the core read the table again. Functions only, on lib.sh's helpers.

# Boost: the turbo OPPs, offered only while it is on. The cpufreq
# core applies the new limits from a work item: wait for them. Off
# again, 6.1's core keeps cpuinfo_max_freq at the boost frequency
# (cpufreq_frequency_table_cpuinfo() only raises it); the policy's
# maximum comes down.
check_boost_on_and_off() {
	why=
	b=$CPUFREQ/boost
	[ "$(get "$b")" = 0 ] || why="${why}boost reads '$(get "$b")' at first; "
	echo 1 2>/dev/null >"$b" || why="${why}boost on refused; "
	want cpuinfo_max_freq "$TOPALL"
	wait_cur "$TOPALL" 5 || why="${why}boost on: at '$c' after 5 s; "
	want scaling_max_freq "$TOPALL"
	want_hw "$TOPALL"
	m=$(get "$CPUFREQ/policy0/cpuinfo_max_freq")
	[ "$m" = "$P0TOP" ] || why="${why}policy0's maximum '$m' with boost; "
	echo 0 2>/dev/null >"$b" || why="${why}boost off refused; "
	wait_cur "$TOP" 5 || why="${why}boost off: at '$c' after 5 s; "
	want scaling_max_freq "$TOP"
	want_hw "$TOP"
	for bad in 2 -1 abc ""; do
		! echo "$bad" 2>/dev/null >"$b" || why="${why}boost took '$bad'; "
	done
	[ "$(get "$b")" = 0 ] || why="${why}boost reads '$(get "$b")' after bad input; "
	want scaling_max_freq "$TOP"
	want scaling_cur_freq "$TOP"
	result cpufreq_boost_on_and_off "$why"
}

# A cap across what makes 6.1's core read the table again: the boost
# switch (it recomputes the policy's limits from the table's valid
# entries and writes the maximum into the user's request) and the
# cluster's CPUs going offline and online (->init() again). Once the
# cap is lifted, nothing of it remains. The switch sets the policy's
# maximum from the table and re-applies the QoS requests only if
# their aggregate moved, which under a lower cap it does not: until
# the policy is next updated, scaling_max_freq reads the table's top,
# and the frequency must stay under the cap meanwhile.
check_cap_outlives_boost_and_hotplug() {
	b=$CPUFREQ/boost
	why=
	cap "$MID"
	echo 1 2>/dev/null >"$b" || why="${why}boost on refused; "
	want scaling_cur_freq "$MID"
	want_hw "$MID"
	echo 0 2>/dev/null >"$b" || why="${why}boost off refused; "
	want scaling_cur_freq "$MID"
	want_hw "$MID"
	cpus=/sys/devices/system/cpu/cpu
	for c in 3 2 2 3; do
		o=$(($(get "$cpus$c/online") ^ 1))
		echo "$o" 2>/dev/null >"$cpus$c/online" ||
			why="${why}cpu$c online $o refused; "
	done
	want scaling_max_freq "$MID"
	want scaling_cur_freq "$MID"
	cap "$TOPALL"
	want scaling_max_freq "$TOP"
	want scaling_cur_freq "$TOP"
	want_hw "$TOP"
	result cpufreq_cluster1_cap_outlives_boost_and_hotplug "$why"
}

# demo_boost: run at use_cluster 2, set_topall.
demo_boost() {
	step "boost on (echo 1 > $CPUFREQ/boost), then off"
	echo 1 >"$CPUFREQ/boost"
	wait_cur "$TOPALL" 5
	show scaling_max_freq scaling_cur_freq
	echo "  read back: $(hw)"
	echo 0 >"$CPUFREQ/boost"
	wait_cur "$TOP" 5
	show scaling_max_freq scaling_cur_freq
	echo "  read back: $(hw)"
}
