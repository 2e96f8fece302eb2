# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# What the guest's user-space scenarios share: where the frameworks
# are, the device tree's OPP tables, a cluster's policy and its hardware
# read back, busy CPUs and cpufreq's stats over a window, and the
# assertions each step reports with (result, want...). The driver
# (cpufreq-scenario) sources this file, then one file a step; nothing here
# runs when it is sourced but the paths' assignments.

# Where the frameworks and the sample show themselves; TMP, what a run
# keeps (the tables read, the fuzz inputs).
CPUFREQ=/sys/devices/system/cpu/cpufreq
# shellcheck disable=SC2034 # the thermal step's
THERMAL=/sys/class/thermal
# shellcheck disable=SC2034 # the energy model step's
EM_DBG=/sys/kernel/debug/energy_model
DBG=/sys/kernel/debug
LIB=$DBG/opp_library/tables
DT=/sys/firmware/devicetree/base
# shellcheck disable=SC2034 # the failure and thermal steps'
PROV=$DBG/opp_cluster_providers
TMP=/tmp/cpufreq-scenario

# ------------------------------------------------------ device tree --

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

# PAIRS "kHz uV kHz uV ..." and ALL the frequencies, N how many, of the
# OPPs cpufreq offers without boost; TURBO those it offers with it only,
# SUSP the opp-suspend one, LAT the transition latency the table and the
# test providers' ramp (10 mV/us) make, in ns; then a few by rank: MIN and
# TOP, LOW2 just above the bottom, BTOP just below the top, MID in the
# middle.
# shellcheck disable=SC2034 # the steps read what is not read here
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

# ---------------------------------------------------------- cluster --

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

# set_topall: TOPALL, the top of the cluster's whole table, boost
# included (TOP without boost).
# shellcheck disable=SC2034 # read by the steps
set_topall() {
	TOPALL=$TOP
	[ -z "$TURBO" ] || TOPALL=${TURBO##* }
}

# Every value on one line, whitespace squeezed.
get() {
	# shellcheck disable=SC2046 # splitting is the point
	set -- $(cat "$@" 2>&1)
	echo "$*"
}
rd() { get "$POL/$1"; }
state_of() { sed -n "s/^$1 //p" "$STATE"; }

# hw: the clock and the rail of the cluster, as the frameworks read them.
hw() {
	printf '%s kHz (clk %s), %s uV (%s)' \
		"$(($(cat "$DBG/clk/$CLK/clk_rate") / 1000))" "$CLK" \
		"$(cat "$REG/microvolts")" "$(cat "$REG/name")"
}

# spin_start [N]: N CPUs (default 1) kept busy for ondemand to see load,
# by as many spinning processes; the policy's load is that of its busiest
# CPU.
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

# window SEC: let SEC seconds pass; then, from cpufreq's stats over them,
# $mean is the policy's mean frequency (MHz), $at_min and $at_top the
# percentage of the time it spent at the bottom and at the top; $trans
# is the number of transitions the driver made.
# shellcheck disable=SC2034 # the steps read the results
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

# ------------------------------------------------------------- demo --

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

# ------------------------------------------------------------ check --

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
