#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The cpufreq story of the guest, told from user space, with opp.ko and
# opp_cpufreq.ko loaded. The OPPs are those the guest booted with: read
# here from CPU0's device tree node (scripts/run-qemu.sh writes them), not
# written down again.
#
#   cpufreq-scenario demo          show it, step by step, on stdout
#   cpufreq-scenario check [SEED]  assert it: one "check NAME ok|failed
#                                  REASON" line per step on stdout, for the
#                                  verdict; SEED (the host's, from the
#                                  kernel command line) drives the fuzz of
#                                  the thermal trigger, so that a failure
#                                  replays; without one, the time does
#   cpufreq-scenario thermal-hot   cluster 1's zone past its trip, the
#                                  policy throttled: the state the sample
#                                  is then unloaded in (a check line)
#   cpufreq-scenario thermal-gone  once the sample is unloaded: its cooling
#                                  devices gone from the zones, the zones
#                                  cooled back (a check line)
#
# Notes (the seed, the fuzz inputs' digest, how long ondemand took) go to
# stderr. Exits 0 once every step has run (failed steps are reported, not
# fatal); any other exit means the scenario stopped half-way.

CPUFREQ=/sys/devices/system/cpu/cpufreq
THERMAL=/sys/class/thermal
EM_DBG=/sys/kernel/debug/energy_model
DBG=/sys/kernel/debug
LIB=$DBG/opp_library/tables
DT=/sys/firmware/devicetree/base
PROV=$DBG/opp_cluster_providers
TMP=/tmp/cpufreq-scenario

# hex FILE: the bytes of FILE in hex, one string.
hex() { hexdump -v -e '1/1 "%02x"' "$1"; }

# table_dir CPU: the device tree node of CPU's operating-points-v2 table
# (a node at the root: the one whose phandle the CPU's property holds).
table_dir() {
	ph=$(hex "$DT/cpus/cpu@$1/operating-points-v2" 2>/dev/null)
	[ -n "$ph" ] || return 0
	for d in "$DT"/*/; do
		[ -r "$d/phandle" ] && [ "$(hex "$d/phandle")" = "$ph" ] &&
			{ echo "${d%/}"; return 0; }
	done
}

# dt_opps: the OPPs of $TDIR, one a line, lowest first: "kHz uV uVmin
# uVmax turbo suspend" (the last two 0 or 1); a disabled one is left out.
# opp-hz is two big-endian cells (its high one must be 0 here: the
# guest's shell computes in 32 bits), opp-microvolt one or three.
dt_opps() {
	for o in "$TDIR"/opp*/; do
		[ -r "$o/opp-hz" ] || continue
		if [ -r "$o/status" ] &&
		   [ "$(tr -d '\0' <"$o/status")" = disabled ]; then
			continue
		fi
		hz=$(hex "$o/opp-hz")
		case "$hz" in 00000000????????) ;; *) echo "bad-opp-hz $hz"; continue ;; esac
		uv=$(hexdump -v -e '4/1 "%02x" " "' "$o/opp-microvolt")
		# shellcheck disable=SC2086 # one word a cell
		set -- $uv
		v=$((0x$1)); lo=$v; hi=$v
		[ $# -ge 3 ] && { lo=$((0x$2)); hi=$((0x$3)); }
		t=0; [ -e "$o/turbo-mode" ] && t=1
		p=0; [ -e "$o/opp-suspend" ] && p=1
		echo "$((0x${hz#00000000} / 1000)) $v $lo $hi $t $p"
	done | sort -n
}

# dt_power: "kHz uW" for each OPP of $TDIR that has opp-microwatt (one
# cell), lowest first; a disabled one is left out.
dt_power() {
	for o in "$TDIR"/opp*/; do
		[ -r "$o/opp-hz" ] || continue
		[ -r "$o/opp-microwatt" ] || continue
		if [ -r "$o/status" ] &&
		   [ "$(tr -d '\0' <"$o/status")" = disabled ]; then
			continue
		fi
		hz=$(hex "$o/opp-hz")
		echo "$((0x${hz#00000000} / 1000)) $((0x$(hex "$o/opp-microwatt")))"
	done | sort -n
}

# use_cluster CPU: the cluster of CPU, whose first CPU it is: its policy,
# its trigger and state, its table (set_table), its clock and its rail.
use_cluster() {
	C=$1
	POL=$CPUFREQ/policy$C
	TRIG=$DBG/opp_cpufreq/policy$C/thermal_cap_khz
	STATE=$DBG/opp_cpufreq/policy$C/state
	TDIR=$(table_dir "$C")
	set_table
	CLK=$(state_of clock)
	REG=
	for r in /sys/class/regulator/regulator.*; do
		[ "$(cat "$r/name" 2>/dev/null)" = "opp-vdd-cluster$((C / 2))" ] && REG=$r
	done
}

# PAIRS "kHz uV kHz uV ..." and ALL the frequencies, N how many, of the
# OPPs cpufreq offers without boost; TURBO those it offers with it only,
# SUSP the opp-suspend one, LAT the transition latency the table and the
# test providers' ramp (10 mV/us) make, in ns; then a few by rank: MIN and
# TOP, LOW2 just above the bottom, BTOP just below the top, MID in the
# middle.
set_table() {
	dt_opps >"$TMP/opps.$C"
	PAIRS=
	ALL=
	TURBO=
	SUSP=
	N=0
	vlo=
	vhi=0
	while read -r k u lo hi t p; do
		[ "$p" = 1 ] && SUSP=$k
		[ -z "$vlo" ] || [ "$lo" -lt "$vlo" ] && vlo=$lo
		[ "$hi" -gt "$vhi" ] && vhi=$hi
		if [ "$t" = 1 ]; then
			TURBO="$TURBO${TURBO:+ }$k"
			continue
		fi
		PAIRS="$PAIRS${PAIRS:+ }$k $u"
		ALL="$ALL${ALL:+ }$k"
		N=$((N + 1))
	done <"$TMP/opps.$C"
	lat=0
	for o in "$TDIR"/opp*/clock-latency-ns; do
		[ -r "$o" ] || continue
		l=$((0x$(hex "$o")))
		[ "$l" -gt "$lat" ] && lat=$l
	done
	ramp_us=$(((vhi - ${vlo:-0} + 9999) / 10000))
	LAT=$((lat + ramp_us * 1000))
	MIN=$(nth 1)
	LOW2=$(nth 2)
	MID=$(nth $(((N + 1) / 2)))
	BTOP=$(nth $((N - 1)))
	TOP=$(nth "$N")
}

# nth I: the I-th lowest frequency of the table.
nth() {
	i=$1
	# shellcheck disable=SC2086 # splitting is the point
	set -- $ALL
	[ "$i" -ge 1 ] && [ "$i" -le $# ] || return 0
	shift $((i - 1))
	echo "$1"
}

# uv_of KHZ: the voltage the device tree gives that frequency.
uv_of() {
	while read -r k u _; do
		[ "$k" = "$1" ] && { echo "$u"; return; }
	done <"$TMP/opps.$C"
}

# Every value on one line, whitespace squeezed.
get() {
	# shellcheck disable=SC2046 # splitting is the point
	set -- $(cat "$@" 2>&1)
	echo "$*"
}
rd() { get "$POL/$1"; }
state_of() { sed -n "s/^$1 //p" "$STATE"; }

# spin_start [N]: N CPUs (default 1) kept busy for ondemand to see load,
# by as many spinning processes; the policy's load is that of its busiest
# CPU.
spin=
spin_start() {
	i=0
	while [ "$i" -lt "${1:-1}" ]; do
		(while :; do :; done) &
		spin="$spin $!"
		i=$((i + 1))
	done
}
spin_stop() {
	[ -n "$spin" ] || return 0
	# shellcheck disable=SC2086 # one word a process
	kill $spin
	# shellcheck disable=SC2086
	wait $spin 2>/dev/null
	spin=
}
trap spin_stop EXIT

# window SEC: let SEC seconds pass; then, from cpufreq's stats over them,
# $mean is the policy's mean frequency (MHz), $at_min and $at_top the
# percentage of the time it spent at the bottom and at the top; $trans
# is the number of transitions the driver made.
window() {
	n0=$(state_of transitions)
	tis
	set -- "$1" "$tis_all" "$tis_mhz" "$tis_min" "$tis_top"
	sleep "$1"
	tis
	n1=$(state_of transitions)
	d=$((tis_all - $2))
	[ "$d" -gt 0 ] || d=1
	mean=$(((tis_mhz - $3) / d))
	at_min=$(((tis_min - $4) * 100 / d))
	at_top=$(((tis_top - $5) * 100 / d))
	trans=$((n1 - n0))
}

# tis: the policy's time so far (10 ms units) at any frequency in
# $tis_all, at MIN and TOP in $tis_min and $tis_top, weighted by the
# frequency (MHz) in $tis_mhz. Builtins only.
tis() {
	tis_all=0
	tis_mhz=0
	tis_min=0
	tis_top=0
	while read -r k t; do
		tis_all=$((tis_all + t))
		# MHz, not kHz: 32-bit shell arithmetic must not overflow
		mhz=$((k / 1000))
		tis_mhz=$((tis_mhz + mhz * t))
		[ "$k" = "$MIN" ] && tis_min=$t
		[ "$k" = "$TOP" ] && tis_top=$t
	done <"$POL/stats/time_in_state"
}

# wait_cur KHZ SEC: poll until the policy runs at KHZ; fails after SEC
# seconds. Sets $waited to the polls it took (10 a second).
wait_cur() {
	waited=0
	while :; do
		read -r c <"$POL/scaling_cur_freq"
		[ "$c" = "$1" ] && return 0
		[ "$waited" -ge $(($2 * 10)) ] && return 1
		waited=$((waited + 1))
		sleep 0.1
	done
}

# ---------------------------------------------------------------- demo --

show() {
	for a in "$@"; do
		printf '  %-30s %s\n' "$a" "$(rd "$a")"
	done
}

step() { printf '\n=== %s\n' "$*"; }

lib_view() {
	if [ -r "$LIB" ]; then
		echo "  $LIB:"
		sed 's/^/    /' "$LIB"
	else
		echo "  ($LIB is not there: this opp.ko has no debugfs view)"
	fi
}

# hw: the clock and the rail of the cluster, as the frameworks read them.
hw() {
	printf '%s kHz (clk %s), %s uV (%s)' \
		"$(($(cat "$DBG/clk/$CLK/clk_rate") / 1000))" "$CLK" \
		"$(cat "$REG/microvolts")" "$(cat "$REG/name")"
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

demo() {
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

	use_cluster 0
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

	use_cluster 2
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
	top=$TOP
	[ -z "$TURBO" ] || top=${TURBO##* }
	step "cooled down: lift the cap (echo $top > $TRIG)"
	echo "$top" >"$TRIG"
	show scaling_max_freq scaling_cur_freq
	echo "  read back: $(hw)"

	step "boost on (echo 1 > $CPUFREQ/boost), then off"
	echo 1 >"$CPUFREQ/boost"
	wait_cur "$top" 5
	show scaling_max_freq scaling_cur_freq
	echo "  read back: $(hw)"
	echo 0 >"$CPUFREQ/boost"
	wait_cur "$TOP" 5
	show scaling_max_freq scaling_cur_freq
	echo "  read back: $(hw)"

	demo_energy_model
	demo_thermal

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

	step "time in each state of policy0, in 10 ms units (cpufreq stats)"
	use_cluster 0
	sed 's/^/  /' "$POL/stats/time_in_state"
	show stats/total_trans
}

# --------------------------------------------------------------- check --

# result NAME WHY: WHY empty means the step passed.
result() {
	if [ -z "$2" ]; then
		echo "check $1 ok"
	else
		echo "check $1 failed $2"
	fi
}

# note TEXT: what a replay or a reader of the console needs, on stderr.
note() { echo "cpufreq-scenario: $*" >&2; }

# want FILE VALUE: add to $why if the policy's FILE does not read VALUE.
want() {
	got=$(rd "$1")
	[ "$got" = "$2" ] || why="$why$1='$got' (want '$2'); "
}

want_state() {
	got=$(state_of "$1")
	[ "$got" = "$2" ] || why="$why$STATE:$1='$got' (want '$2'); "
}

# set_gov GOV: switch governors, noting a refusal.
set_gov() {
	echo "$1" 2>/dev/null >"$POL/scaling_governor" ||
		why="${why}governor $1 refused; "
}

# setspeed_each NAME: the userspace governor on, then at every frequency
# of the cluster in turn, each a check NAME_KHZ that cpufreq and the
# hardware went there.
setspeed_each() {
	set_gov userspace
	for f in $ALL; do
		why=
		echo "$f" 2>/dev/null >"$POL/scaling_setspeed" ||
			why="setspeed $f refused; "
		want scaling_cur_freq "$f"
		want_hw "$f"
		result "$1_$f" "$why"
	done
}

# want_lib KHZ: the library's debugfs view of the cluster's first CPU must
# list every OPP of the device tree, in order, with its voltage, available
# if and only if it is at or below KHZ.
want_lib() {
	[ -r "$LIB" ] || { why="$why$LIB missing; "; return; }
	exp=
	while read -r k u _; do
		a=no
		[ "$k" -le "$1" ] && a=yes
		exp="${exp}cpu$C $((k * 1000)) $u $a|"
	done <"$TMP/opps.$C"
	got=$(grep "^cpu$C " "$LIB" | tr -s ' ' | tr '\n' '|')
	[ "$got" = "$exp" ] || why="${why}$LIB: '$got' (want '$exp'); "
}

# want_hw KHZ: the hardware at the OPP of KHZ, read back three ways: the
# driver's state (clk_get_rate(), regulator_get_voltage()), the clock
# framework's debugfs, the regulator's sysfs.
want_hw() {
	want_state clock_khz "$1"
	u=$(uv_of "$1")
	want_state supply_uv "$u"
	r=$(cat "$DBG/clk/$CLK/clk_rate" 2>&1)
	[ "$r" = "$(($1 * 1000))" ] ||
		why="${why}clk $CLK rate '$r' (want $(($1 * 1000))); "
	r=$(cat "$REG/microvolts" 2>&1)
	[ "$r" = "$u" ] || why="${why}regulator ${REG##*/} at '$r' uV (want $u); "
}

# cap_is KHZ [WRITTEN]: what an accepted write of the thermal trigger
# must have done, once it returns: exactly the OPPs at or below KHZ
# available in the library's view, the policy's maximum at or below KHZ,
# cpufreq's table as it was (the driver caps the policy, it does not
# rewrite the table under the core) and the trigger reading KHZ.
cap_is() {
	want scaling_available_frequencies "$ALL"
	m=$(rd scaling_max_freq)
	[ "$m" -le "$1" ] 2>/dev/null ||
		why="${why}scaling_max_freq '$m' above the cap $1; "
	want_state available_max_khz "$1"
	t=$(get "$TRIG")
	[ "$t" = "$1" ] || why="${why}trigger reads '$t' after '${2:-$1}'; "
	want_lib "$1"
}

# cap KHZ: the thermal trigger, with a table frequency: accepted, and the
# effect above.
cap() {
	if echo "$1" 2>/dev/null >"$TRIG"; then
		cap_is "$1"
	else
		why="${why}cap $1 refused; "
	fi
}

# snap: all that a refused write must leave as it was, in $snap. Builtins
# only: this runs for every fuzz input, and a fork is slow in the guest.
snap() {
	snap=
	for f in "$POL/scaling_available_frequencies" "$POL/scaling_max_freq" \
		"$POL/scaling_cur_freq" "$TRIG"; do
		read -r l <"$f" || l="($f unreadable)"
		snap="$snap$l|"
	done
}

# refuse ESC: write the bytes that `echo -ne ESC` makes to the trigger in
# one write(2) (the shell's echo builtin: no fork); the write must fail
# with EINVAL and leave $snap as it was in $before. Counts in $nref and
# $nbad; the first failure in $fwhy.
refuse() {
	# shellcheck disable=SC3037 # busybox's echo has -n and -e
	if echo -ne "$1" 2>"$TMP/err" >"$TRIG"; then rc=0; else rc=1; fi
	snap
	bad=
	if [ $rc -eq 0 ]; then
		bad="accepted"
	else
		read -r err <"$TMP/err"
		case "$err" in
		*"Invalid argument"*) ;;
		*) bad="refused, not with EINVAL: $err" ;;
		esac
	fi
	[ "$snap" = "$before" ] || bad="${bad:+$bad, }changed '$before' to '$snap'"
	nref=$((nref + 1))
	if [ -n "$bad" ]; then
		nbad=$((nbad + 1))
		[ -n "$fwhy" ] || fwhy="input '$(printf '%.60s' "$1")': $bad"
		# Judge the next inputs against what is there now.
		before=$snap
	fi
}

# gen_inputs COUNT SEED: the malformed inputs, one `echo -e` string a line:
# fixed ones around F (a table frequency below the top), then COUNT random
# ones from awk's generator seeded with SEED (the guest's /dev/urandom may
# block for minutes before the entropy pool is ready, and a seed replays).
# Each is malformed by construction: any input, fixed or random, that
# happens to be a well-formed table frequency is made malformed.
gen_inputs() {
	f=$BTOP
	# The lone newline is what `echo >` writes for an empty value; a
	# zero-length write(2) cannot be made from here.
	sed -e "s/@FP1@/$((f + 1))/g" -e "s/@FM1@/$((f - 1))/g" \
	    -e "s/@FHEX@/$(printf '%06X' "$f")/g" -e "s/@F18@/$(printf '%018d' "$f")/g" \
	    -e "s/@TOP23@/$(printf '%023d' "$TOP")/g" -e "s/@ABOVE@/$((TOP + TOP / 5))/g" \
	    -e "s/@TWICE@/$((TOP * 2))/g" -e "s/@F@/$f/g" <<'END' |
\n
 
\t
\r\n
\0
abc
-1
-@F@
+@F@
 @F@
@F@ 
@F@\n\n
@F@\r\n
\n@F@
@F@x
0x@F@
0X@FHEX@
8e5
800,000
800.000
800_000
800 000
@F@\0
\0@F@
@F@\0garbage
@FP1@
@FM1@
0
00
1
100000
@ABOVE@
@TWICE@
4294967295
4294967296
18446744073709551615
18446744073709551616
99999999999999999999999
@F@;reboot
$(id)
cap=@F@
@F@ kHz
800MHz
\0377\0376
\0342\0200\0213@F@
\0331\0241\0331\0240
@F18@
@TOP23@\n
END
	awk -v count="$1" -v seed="$2" -v all="$ALL" '
	function r(n) { return int(rand() * n) }
	# n copies of the digit c, built in one go (awk concatenation in a
	# loop is quadratic, and slow in the guest)
	function many(c, n,   s) {
		s = sprintf("%0" n "d", 0)
		gsub(/0/, c, s)
		return s
	}
	# Never a well-formed table frequency.
	function malformed(s,   v) {
		v = s
		sub(/\\n$/, "", v)
		if (v ~ /^[0-9]+$/ && length(v) <= 16 &&
		    (" " all " ") ~ (" " (v + 0) " "))
			s = s "x"
		return s
	}
	{ print malformed($0) }
	END {
		srand(seed)
		nf = split(all, freq, " ")
		for (i = 0; i < 256; i++)
			esc[i] = sprintf("\\0%03o", i)
		# too long, whatever the bytes
		print many("8", 17); print many("8", 64)
		print many("0", 4089) freq[nf]; print many("8", 4096)
		print many("1", 8000)
		stray = "-+ .,xk/;#=_"
		set = "abcxyzXYZ0123456789 _+-.:"
		for (i = 1; i <= count; i++) {
			k = i % 5
			s = ""
			if (k == 0) {
				# random bytes, escaped; never digits only
				n = r(40) + 1
				for (j = 0; j < n; j++)
					s = s esc[r(256)]
				if (s ~ /^(\\0(06[0-7]|07[01]|012))+$/)
					s = s "x"
				print s
				continue
			} else if (k == 1) {
				# a number, maybe with a newline
				s = r(2 * freq[nf] + 1) (r(2) ? "\\n" : "")
			} else if (k == 2) {
				# a table frequency with a stray byte in it
				f = freq[r(nf) + 1]
				p = r(length(f) + 1)
				s = substr(f, 1, p) \
				    substr(stray, r(length(stray)) + 1, 1) \
				    substr(f, p + 1)
			} else if (k == 3) {
				# printable garbage
				n = r(30) + 1
				for (j = 0; j < n; j++)
					s = s substr(set, r(length(set)) + 1, 1)
			} else {
				# a table frequency behind zeros: too long
				s = sprintf("%0" (17 + r(20)) "d", freq[r(nf) + 1])
			}
			print malformed(s)
		}
	}'
}

# fuzz NAME COUNT SALT: the fixed malformed inputs, then COUNT random ones
# drawn from the run's seed and SALT (so that two fuzz runs differ).
fuzz() {
	nref=0
	nbad=0
	fwhy=
	s=$((SEED * 16 + $3))
	gen_inputs "$2" "$s" >"$TMP/inputs"
	note "fuzz $1: seed $SEED, $(wc -l <"$TMP/inputs") inputs, md5 $(md5sum <"$TMP/inputs" | cut -c1-32)"
	snap
	before=$snap
	while IFS= read -r line; do
		refuse "$line"
	done <"$TMP/inputs"

	if [ "$nbad" -eq 0 ] && [ "$nref" -gt "$2" ]; then
		why=
	else
		why="$nbad of $nref inputs not refused cleanly (seed $SEED); first: $fwhy"
	fi
	result "cpufreq_trigger_fuzz_${1}_${nref}_inputs" "$why"
}

check() {
	mkdir -p "$TMP"
	note "seed $SEED"

	# The two clusters' tables, read back from the guest's device tree.
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
	[ -z "$why" ] || return 0

	# The energy model the sample registered for each cluster (its
	# ->register_em(), opp_of_register_em()), as the kernel's debugfs
	# shows it: one state per OPP of the table, at the power the
	# device tree gives, over the cluster's CPUs.
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

	use_cluster 0
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

	why=
	m=$(stat -c '%a %u' "$TRIG" 2>&1)
	[ "$m" = "600 0" ] || why="mode/owner '$m' (want '600 0'); "
	m=$(stat -c '%a %u' "$STATE" 2>&1)
	[ "$m" = "400 0" ] || why="${why}state mode/owner '$m'; "
	result cpufreq_trigger_root_only "$why"

	why=
	cap_is "$TOP"
	result cpufreq_library_view_all_available "$why"

	why=
	set_gov powersave
	want scaling_cur_freq "$MIN"
	want_hw "$MIN"
	result cpufreq_powersave_goes_lowest "$why"

	setspeed_each cpufreq_userspace_setspeed

	# Running at the top when the thermal event comes.
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

	# Every table frequency, down the table and up again, written the way
	# the fuzz below writes (so that its refusals are the trigger's, not
	# echo's), with and without a newline, and zero-padded to the longest
	# input the trigger takes: each one accepted, each one's effect exact.
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

	set_gov performance
	fuzz uncapped 200 1
	cap "$MID"
	fuzz capped 80 2
	why=
	cap_is "$MID"
	want scaling_max_freq "$MID"
	cap "$TOP"
	want scaling_max_freq "$TOP"
	result cpufreq_state_after_fuzz "$why"

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

	# ondemand under load runs at the policy's maximum: it follows each
	# cap down at once, and up at its next sample. Every CPU spins: a
	# single spinner may run on the other cluster's CPUs.
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

	check_cluster1
	check_thermal
	check_suspend
	rm -rf "$TMP"
}

# The second cluster: its own table, clock and rail; a cap on it alone;
# boost; a step that fails half-way.
check_cluster1() {
	use_cluster 2
	TOPALL=$TOP
	[ -z "$TURBO" ] || TOPALL=${TURBO##* }

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

	# Every OPP in turn, each one a transition in cpufreq's stats: the
	# policy was made while the cluster's clock ran at the test
	# provider's boot rate, no OPP of the table; stats made at a
	# frequency off their table count nothing, ever (and 6.1's reset of
	# them reads time_in_state[-1]).
	t0=$(get "$POL/stats/total_trans")
	setspeed_each cpufreq_cluster1_setspeed
	set_gov performance
	why=
	t1=$(get "$POL/stats/total_trans")
	[ "$t1" -ge $((t0 + N)) ] 2>/dev/null ||
		why="stats/total_trans '$t0' -> '$t1' over $N setspeeds; "
	result cpufreq_cluster1_stats_count_transitions "$why"

	# A thermal event on one cluster leaves the other alone.
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

	# Boost: the turbo OPPs, offered only while it is on. The cpufreq
	# core applies the new limits from a work item: wait for them. Off
	# again, 6.1's core keeps cpuinfo_max_freq at the boost frequency
	# (cpufreq_frequency_table_cpuinfo() only raises it); the policy's
	# maximum comes down.
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

	# A cap across what makes 6.1's core read the table again: the boost
	# switch (it recomputes the policy's limits from the table's valid
	# entries and writes the maximum into the user's request) and the
	# cluster's CPUs going offline and online (->init() again). Once the
	# cap is lifted, nothing of it remains. The switch sets the policy's
	# maximum from the table and re-applies the QoS requests only if
	# their aggregate moved, which under a lower cap it does not: until
	# the policy is next updated, scaling_max_freq reads the table's top,
	# and the frequency must stay under the cap meanwhile.
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

	# The rail fails going down, after the clock slowed: the library puts
	# the clock back, cpufreq keeps the old frequency.
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

# ------------------------------------------------------------ thermal --

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
maxwait=0
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

case "$1" in
demo)
	mkdir -p "$TMP"
	demo
	;;
check)
	SEED=${2:-$(date +%s)}
	check
	;;
thermal-hot) thermal_hot ;;
thermal-gone) thermal_gone ;;
*) echo "usage: $0 demo | check [SEED] | thermal-hot | thermal-gone" >&2; exit 2 ;;
esac
