# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The cpufreq scenario's failure step, on the second cluster: a
# transition whose rail fails half-way. Functions only, on lib.sh's
# helpers.

# The rail fails going down, after the clock slowed: the library puts
# the clock back, cpufreq keeps the old frequency.
check_failed_step() {
	why=
	fv=$PROV/cluster1/fail_voltage
	set_gov userspace
	echo "$BTOP" 2>/dev/null >"$POL/scaling_setspeed"
	n0=$(state_of failed_transitions)
	c0=$(sed -n 's/^clock //p' "$PROV/cluster1/calls")
	echo -5 >"$fv" || why="${why}cannot arm $fv; "
	# 6.1's scaling_setspeed returns success whatever the governor's
	# change did: the failure shows in the driver's count and the hardware.
	echo "$LOW2" 2>/dev/null >"$POL/scaling_setspeed"
	echo 0 >"$fv"
	want scaling_cur_freq "$BTOP"
	want_hw "$BTOP"
	n1=$(state_of failed_transitions)
	[ "$n1" = $((n0 + 1)) ] || why="${why}failed transitions $n0 -> $n1; "
	c1=$(sed -n 's/^clock //p' "$PROV/cluster1/calls")
	[ "$c1" = $((c0 + 2)) ] ||
		why="${why}$((c1 - c0)) clock changes (want 2: down, and back); "
	echo "$LOW2" 2>/dev/null >"$POL/scaling_setspeed" ||
		why="${why}setspeed refused once the rail works; "
	want_hw "$LOW2"
	set_gov performance
	want_hw "$TOP"
	result cpufreq_failed_step_puts_the_opp_back "$why"
}
