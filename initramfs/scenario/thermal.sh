# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The cpufreq scenario's thermal steps: each cluster's thermal zone
# throttling its policy through the cpufreq cooling device, under
# step_wise and power_allocator; the zones before and after the sample's
# unload (cpufreq-scenario thermal-hot, thermal-gone). Functions only, on
# lib.sh's helpers.

# class_dir CLASS TYPE: the /sys/class/thermal entry (thermal_zone or
# cooling_device) whose type is TYPE.
class_dir() {
	for d in "$THERMAL/$1"*; do
		[ "$(cat "$d/type" 2>/dev/null)" = "$2" ] && { echo "$d"; return 0; }
	done
}

# use_zone CPU: the thermal side of CPU's cluster (use_cluster first): its
# zone ZONE (cluster K's "clusterK-thermal"), the sensor channel SENSOR
# that the zone reads, the cooling device CDEV that the cpufreq core made
# for the policy, the passive trip the map names, the zone's last (index
# TRIPN, TRIP and HYST in millicelsius), the first passive trip, where
# power_allocator switches on (SWITCH), the state range LO-HI that the
# zone's cooling map gives it (from the device tree), and NT, the number of frequencies of the
# policy's whole table, turbo included: cooling state S caps the policy
# at the S-th of them down from the top.
use_zone() {
	k=$(($1 / 2))
	ZNAME=cluster$k-thermal
	ZONE=$(class_dir thermal_zone "$ZNAME")
	SENSOR=$PROV/thermal/temp$k
	CDEV=$(class_dir cooling_device "cpufreq-cpu$1")
	TRIPN=
	SWITCHN=
	for t in "$ZONE"/trip_point_*_type; do
		[ "$(cat "$t" 2>/dev/null)" = passive ] || continue
		TRIPN=${t#"$ZONE"/trip_point_}
		TRIPN=${TRIPN%_type}
		[ -n "$SWITCHN" ] || SWITCHN=$TRIPN
	done
	SWITCH=$(cat "$ZONE/trip_point_${SWITCHN}_temp" 2>/dev/null)
	TRIP=$(cat "$ZONE/trip_point_${TRIPN}_temp" 2>/dev/null)
	HYST=$(cat "$ZONE/trip_point_${TRIPN}_hyst" 2>/dev/null)
	# shellcheck disable=SC2046 # one word a cell
	set -- $(hexdump -v -e '4/1 "%02x" " "' \
		"$DT/thermal-zones/$ZNAME/cooling-maps/map0/cooling-device" 2>/dev/null)
	LO=$((0x${2:-ff}))
	HI=$((0x${3:-ff}))
	NT=$(wc -l <"$TMP/opps.$C")
}

# state_khz S: what cooling state S caps the policy at: the S-th
# frequency down from the top of the whole table, and never above what
# the policy may run at without boost.
state_khz() {
	f=$(sort -rn "$TMP/opps.$C" | sed -n "$(($1 + 1))s/ .*//p")
	[ -n "$f" ] && [ "$f" -le "$TOP" ] || f=$TOP
	echo "$f"
}

# wait_max KHZ SEC: poll until the policy's maximum reads KHZ (the cooling
# device's request reaches the policy from a work item); fails after SEC
# seconds. Sets $waited to the polls it took (10 a second), $maxwait to
# the most any call took.
wait_max() {
	waited=0
	while :; do
		read -r m <"$POL/scaling_max_freq"
		[ "$m" = "$1" ] && break
		[ "$waited" -ge $(($2 * 10)) ] && return 1
		waited=$((waited + 1))
		sleep 0.1
	done
	[ "$waited" -gt "$maxwait" ] && maxwait=$waited
	return 0
}

# heat MC: the sensor reads MC millicelsius; the zone was evaluated by the
# time the write returns.
heat() {
	echo "$1" 2>/dev/null >"$SENSOR" || why="${why}$SENSOR refused $1; "
	t=$(cat "$ZONE/temp" 2>&1)
	[ "$t" = "$1" ] || why="${why}$ZNAME reads '$t' after $1; "
}

# want_throttled S WHEN: the cooling device at state S, and the policy
# (performance governor) capped at and running at that state's frequency,
# read back from cpufreq and from the clock and the rail.
want_throttled() {
	cs=$(cat "$CDEV/cur_state" 2>&1)
	[ "$cs" = "$1" ] || why="${why}$2: cur_state '$cs' (want $1); "
	f=$(state_khz "$1")
	wait_max "$f" 10 ||
		why="${why}$2: scaling_max_freq '$m' after 10 s (want $f); "
	want scaling_cur_freq "$f"
	want_hw "$f"
}

# The zone of CPU's cluster and the policy's cooling device, bound by the
# zone's cooling map to the passive trip, the governor step_wise (the
# states below are its rules), nothing throttled yet.
check_zone_bound() {
	why=
	[ -n "$ZONE" ] || { result "cpufreq_thermal_cluster${k}_zone_bound" "no zone $ZNAME"; return 1; }
	[ -n "$CDEV" ] || why="${why}no cooling device cpufreq-cpu$C; "
	[ -n "$TRIPN" ] || why="${why}$ZNAME has no passive trip; "
	[ "$LO" -ge 1 ] && [ "$LO" -le "$HI" ] && [ "$HI" -lt "$NT" ] ||
		why="${why}cooling map states '$LO-$HI' of $NT; "
	[ -w "$SENSOR" ] || why="${why}no $SENSOR; "
	[ -z "$why" ] || { result "cpufreq_thermal_cluster${k}_zone_bound" "$why"; return 1; }
	echo step_wise 2>/dev/null >"$ZONE/policy" ||
		why="${why}$ZNAME refused step_wise; "
	ms=$(cat "$CDEV/max_state")
	[ "$ms" = $((NT - 1)) ] || why="${why}max_state '$ms' (want $((NT - 1))); "
	cs=$(cat "$CDEV/cur_state")
	[ "$cs" = 0 ] || why="${why}cur_state '$cs' at first; "
	bound=
	for l in "$ZONE"/cdev[0-9]*; do
		case "${l##*/}" in *_*) continue ;; esac
		[ "$(readlink -f "$l")" = "$(readlink -f "$CDEV")" ] || continue
		bound=$(cat "${l}_trip_point")
	done
	[ "$bound" = "$TRIPN" ] ||
		why="${why}cpufreq-cpu$C bound to trip '$bound' of $ZNAME (want $TRIPN); "
	want scaling_max_freq "$TOP"
	result "cpufreq_thermal_cluster${k}_zone_bound" "$why"
	[ -z "$why" ]
}

# Past the trip, step_wise throttles the policy at the map's lowest state;
# each rise of the temperature one state more, up to the map's highest;
# a steady temperature changes nothing; the other cluster is left alone.
# Cooling below the trip's hysteresis brings it back: 6.1's step_wise
# steps down a state per fall of the temperature, below the map's lowest
# to none, 6.12's releases the trip at once; each step is one or the
# other. At the end, the policy runs at its top again.
check_zone_throttles() {
	why=
	set_gov performance
	want scaling_cur_freq "$TOP"
	other=$CPUFREQ/policy$(((C + 2) % 4))
	omax=$(get "$other/scaling_max_freq")
	t=$((TRIP + 1000))
	heat "$t"
	want_throttled "$LO" "at $t"
	s=$LO
	while [ "$s" -lt "$HI" ]; do
		s=$((s + 1))
		t=$((t + 1000))
		heat "$t"
		want_throttled "$s" "at $t"
	done
	t=$((t + 1000))
	heat "$t"
	want_throttled "$HI" "at $t, past the map's top"
	heat "$t"
	want_throttled "$HI" "at $t again"
	m=$(get "$other/scaling_max_freq")
	[ "$m" = "$omax" ] || why="${why}policy of the other cluster capped at '$m' too; "

	t=$((TRIP - HYST - 1000))
	n=0
	s=$HI
	while [ "$s" != 0 ] && [ "$n" -le $((HI - LO + 1)) ]; do
		heat "$t"
		cs=$(cat "$CDEV/cur_state")
		# Down one state, or none below the map's lowest, or all at once.
		if [ "$s" -gt "$LO" ]; then next=$((s - 1)); else next=0; fi
		[ "$cs" = "$next" ] || [ "$cs" = 0 ] ||
			why="${why}at $t from state $s: cur_state '$cs'; "
		s=$cs
		want_throttled "$s" "cooled to $t"
		note "$ZNAME at $t: cooling state $s"
		t=$((t - 1000))
		n=$((n + 1))
	done
	[ "$s" = 0 ] || why="${why}still at state $s after $n falls; "
	heat 40000
	want_throttled 0 "back at 40000"
	want scaling_max_freq "$TOP"
	result "cpufreq_thermal_cluster${k}_trip_throttles_and_recovers" "$why"
}

# want_pa_state LO HI WHEN: the cooling state within LO-HI, and the
# policy capped within that range's frequencies and running at a
# frequency of it, its clock and rail at that OPP. With LO = HI, exactly
# that state (want_throttled). Between the ends the governor may pick
# another state at each passive poll (the state went back and forth
# twice while the policy followed it, on a loaded host), so the policy is
# judged against the range, and the hardware against the frequency read
# just before: a mismatch counts only if that frequency held still
# meanwhile (five tries).
want_pa_state() {
	if [ "$1" = "$2" ]; then
		want_throttled "$1" "$3"
		note "$ZNAME power_allocator at $3: cooling state $(cat "$CDEV/cur_state")"
		return
	fi
	flo=$(state_khz "$2")
	fhi=$(state_khz "$1")
	tries=0
	while :; do
		pa=$(cat "$CDEV/cur_state" 2>&1)
		if ! { [ "$pa" -ge "$1" ] 2>/dev/null && [ "$pa" -le "$2" ]; }; then
			why="${why}$3: cur_state '$pa' (want $1-$2); "
			break
		fi
		waited=0
		while read -r m <"$POL/scaling_max_freq" &&
		      { [ "$m" -lt "$flo" ] || [ "$m" -gt "$fhi" ]; }; do
			[ "$waited" -ge 100 ] && break
			waited=$((waited + 1))
			sleep 0.1
		done
		read -r f <"$POL/scaling_cur_freq"
		before=$why
		why=
		[ "$m" -ge "$flo" ] && [ "$m" -le "$fhi" ] ||
			why="${why}$3: scaling_max_freq '$m' after 10 s (want $flo-$fhi); "
		[ "$f" -ge "$flo" ] && [ "$f" -le "$fhi" ] ||
			why="${why}$3: scaling_cur_freq '$f' (want $flo-$fhi); "
		ranged=$why
		[ -n "$why" ] || want_hw "$f"
		# The governor moves the cap at every poll, and a transition
		# in flight shows the hardware at its new rate while cpufreq
		# still reports the old one (policy->cur changes only after
		# the driver returns): the same scaling_cur_freq before and
		# after the hardware's reading does not rule one out (a CI
		# run of 2026-12-07 read 40 MHz between two 45 MHz). A
		# mismatch that lasts five readings is one.
		if [ -z "$why" ] || [ -n "$ranged" ] || [ "$tries" -ge 4 ]; then
			why=$before$why
			break
		fi
		why=$before
		tries=$((tries + 1))
		sleep 0.2
	done
	note "$ZNAME power_allocator at $3: cooling state $pa, running at $f kHz ($tries retries)"
}

# The same zone under power_allocator, whose PID controller turns the
# temperature into a power budget for the zone's power actors, the
# policy's cooling device that the energy model makes one: without the
# model the zone refuses the governor. Below the switch-on trip it lifts
# every cap; from there up it runs at each write of the temperature and
# the instance clamps its state to the map's range. What it picks in
# between is not exact: the cooling device scales the budget by the
# CPUs' load, which the scheduler reports (frequency-invariant, and
# sampled under emulation), so only the range is asserted there. Far
# enough past the trip it is exact: the proportional term alone (the
# integral only adds to it) exceeds the estimated sustainable power,
# the budget is 0, and 0 mW is the map's highest state whatever the
# load. The writes repeat, as the controller integrates the error over
# them. Then cooled below the switch-on trip: state 0, the policy at its
# top. step_wise again at the end, for what follows.
check_zone_power_allocator() {
	why=
	name=cpufreq_thermal_cluster${k}_power_allocator_throttles_and_recovers
	set_gov performance
	other=$CPUFREQ/policy$(((C + 2) % 4))
	omax=$(get "$other/scaling_max_freq")
	if ! echo power_allocator 2>"$TMP/err" >"$ZONE/policy"; then
		result "$name" "$ZNAME refused power_allocator: $(cat "$TMP/err") (no power actor: no energy model?)"
		return 1
	fi
	p=$(cat "$ZONE/policy")
	[ "$p" = power_allocator ] || why="${why}$ZNAME policy '$p'; "
	# 6.1's governor looks for passive trips only before the first
	# critical one, and both take the first passive trip as the
	# switch-on one and the last as the temperature to hold.
	order=
	for t in "$ZONE"/trip_point_*_type; do
		order="$order$(cat "$t") "
	done
	[ "$order" = "passive passive critical " ] ||
		why="${why}$ZNAME trips '$order' (want passive passive critical); "
	[ -n "$SWITCH" ] && [ "$SWITCH" -lt "$TRIP" ] ||
		why="${why}no switch-on trip below $TRIP ('$SWITCH'); "
	heat $((SWITCH - 1000))
	want_throttled 0 "at $((SWITCH - 1000)), below the switch-on trip"
	for t in $((TRIP + 1000)) $((TRIP + 1000)) $((TRIP + 2000)); do
		heat "$t"
		want_pa_state "$LO" "$HI" "$t"
	done
	# The proportional gain is the sustainable power over TRIP - SWITCH:
	# twice that past the trip, and a degree for the rounding, leaves
	# nothing of the budget.
	t=$((TRIP + 2 * (TRIP - SWITCH) + 1000))
	for n in 1 2 3; do
		heat "$t"
		want_pa_state "$HI" "$HI" "$t ($n)"
	done
	m=$(get "$other/scaling_max_freq")
	[ "$m" = "$omax" ] || why="${why}policy of the other cluster capped at '$m' too; "
	t=$((TRIP - 1000))
	heat "$t"
	want_pa_state "$LO" "$HI" "$t, cooled below the trip"
	heat 40000
	want_throttled 0 "back at 40000"
	want scaling_max_freq "$TOP"
	m=$(get "$other/scaling_max_freq")
	[ "$m" = "$omax" ] || why="${why}policy of the other cluster capped at '$m' after; "
	echo step_wise 2>/dev/null >"$ZONE/policy" ||
		why="${why}$ZNAME refused step_wise back; "
	p=$(cat "$ZONE/policy")
	[ "$p" = step_wise ] || why="${why}$ZNAME policy '$p' at the end; "
	result "$name" "$why"
}

check_thermal() {
	for c in 0 2; do
		use_cluster "$c"
		use_zone "$c"
		note "$ZNAME: passive trip $TRIPN at $TRIP (hysteresis $HYST), switch-on at $SWITCH, cpufreq-cpu$c states $LO-$HI of $((NT - 1)) ($(state_khz "$LO")-$(state_khz "$HI") kHz)"
		check_zone_bound || continue
		check_zone_throttles
		check_zone_power_allocator
	done
	note "thermal: the policy followed a cooling state within $maxwait polls of 0.1 s"
}

# Cluster 1 throttled by its zone, for the unload that follows.
thermal_hot() {
	mkdir -p "$TMP"
	use_cluster 2
	use_zone 2
	why=
	[ -n "$ZONE" ] && [ -n "$CDEV" ] || why="no zone $ZNAME or no cooling device; "
	if [ -z "$why" ]; then
		heat $((TRIP + 1000))
		want_throttled "$LO" "at $((TRIP + 1000))"
	fi
	result cpufreq_thermal_throttled_before_unload "$why"
}

# The sample gone: no cpufreq cooling device left, nothing bound to the
# zones, which stay (their sensor is still there) and take a temperature
# with nothing to throttle.
thermal_gone() {
	why=
	[ ! -d "$CPUFREQ/policy0" ] || why="${why}policy0 outlived the sample; "
	for d in "$THERMAL"/cooling_device*; do
		[ -e "$d" ] || continue
		case "$(cat "$d/type")" in
		cpufreq-*) why="${why}$(cat "$d/type") outlived the sample; " ;;
		esac
	done
	for k in 0 1; do
		ZNAME=cluster$k-thermal
		ZONE=$(class_dir thermal_zone "$ZNAME")
		SENSOR=$PROV/thermal/temp$k
		[ -n "$ZONE" ] || { why="${why}no zone $ZNAME; "; continue; }
		for l in "$ZONE"/cdev*; do
			[ -e "$l" ] && why="${why}$ZNAME still has ${l##*/}; "
		done
		heat 90000
		heat 40000
	done
	result cpufreq_thermal_unload_removes_cooling_devices "$why"
}

# zone_line WHEN: the zone's temperature and the cooling state, once the
# policy has followed it, and what the policy and the hardware run at.
zone_line() {
	s=$(cat "$CDEV/cur_state")
	wait_max "$(state_khz "$s")" 10 || true
	printf '  %-26s %s: %6s mC, state %s: scaling_max_freq %s, cur %s, read back %s\n' \
		"$1" "$(cat "$ZONE/policy")" "$(cat "$ZONE/temp")" "$s" \
		"$(rd scaling_max_freq)" "$(rd scaling_cur_freq)" "$(hw)"
}

# Cluster 1's thermal zone throttles policy2 through the cpufreq cooling
# device, under each governor in turn; policy0 is left alone.
demo_thermal() {
	use_cluster 2
	use_zone 2
	if [ -z "$ZONE" ] || [ -z "$CDEV" ]; then
		echo "  no zone $ZNAME or no cooling device"
		return 0
	fi
	p0=$(get "$CPUFREQ/policy0/scaling_max_freq")
	step "policy2 throttled by $ZNAME (passive trip $TRIP, hysteresis $HYST, switch-on $SWITCH; cooling states $LO-$HI): step_wise"
	echo step_wise >"$ZONE/policy"
	why=
	for t in $((TRIP - 1000)) $((TRIP + 1000)) $((TRIP + 2000)) $((TRIP + 3000)); do
		heat "$t"
		zone_line "heated to $t"
	done
	t=$((TRIP - HYST - 1000))
	n=0
	while :; do
		heat "$t"
		zone_line "cooled to $t"
		[ "$(cat "$CDEV/cur_state")" = 0 ] || [ "$n" -ge 5 ] && break
		t=$((t - 1000))
		n=$((n + 1))
	done
	step "policy2 throttled by $ZNAME: power_allocator (its power actor the energy model makes)"
	if echo power_allocator 2>/dev/null >"$ZONE/policy"; then
		for t in $((SWITCH - 1000)) $((TRIP + 1000)) $((TRIP + 2 * (TRIP - SWITCH) + 1000)); do
			heat "$t"
			zone_line "heated to $t"
		done
		heat 40000
		zone_line "cooled to 40000"
		echo step_wise >"$ZONE/policy"
	else
		echo "  $ZNAME refused power_allocator"
	fi
	echo "  policy0's scaling_max_freq: $p0 before, $(get "$CPUFREQ/policy0/scaling_max_freq") after"
	[ -z "$why" ] || echo "  the sensor: $why"
}
