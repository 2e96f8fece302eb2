# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The cpufreq scenario's suspend step: each policy at its opp-suspend
# OPP across a suspend to idle. Functions only, on lib.sh's helpers.

# The suspend OPP, across a suspend to idle that pm_test stops after the
# devices' suspend: each policy at its opp-suspend OPP while suspended
# (the driver read the hardware back there), at its governor's choice
# again once resumed.
check_suspend() {
	why=
	pt=/sys/power/pm_test
	if [ ! -w "$pt" ]; then
		result cpufreq_suspend_opp_across_freeze "no $pt: a kernel without PM_DEBUG"
		return 0
	fi
	use_cluster 0
	s0=$(state_of suspends)
	use_cluster 2
	s2=$(state_of suspends)
	echo devices >"$pt"
	echo freeze 2>"$TMP/err" >/sys/power/state ||
		why="${why}freeze failed: $(cat "$TMP/err"); "
	echo none >"$pt"
	for c in 0 2; do
		use_cluster "$c"
		s=$s0
		[ "$c" = 2 ] && s=$s2
		want_state suspends $((s + 1))
		want_state suspended_at_khz "$SUSP"
		want_state suspended_at_uv "$(uv_of "$SUSP")"
		want scaling_cur_freq "$TOP"
		want_hw "$TOP"
	done
	result cpufreq_suspend_opp_across_freeze "$why"
}

# A suspend to idle that pm_test stops after the devices, if it can.
demo_suspend() {
	if [ -w /sys/power/pm_test ]; then
		step "suspend to idle (pm_test: devices): each policy at its opp-suspend OPP"
		echo devices >/sys/power/pm_test
		echo freeze >/sys/power/state
		echo none >/sys/power/pm_test
		for c in 0 2; do
			use_cluster "$c"
			echo "  policy$c: suspended at $(state_of suspended_at_khz) kHz, $(state_of suspended_at_uv) uV (opp-suspend $SUSP kHz); now $(hw)"
		done
	fi
}
