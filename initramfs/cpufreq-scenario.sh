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
#
# Notes (the seed, the fuzz inputs' digest, how long ondemand took) go to
# stderr. Exits 0 once every step has run (failed steps are reported, not
# fatal); any other exit means the scenario stopped half-way.

POL=/sys/devices/system/cpu/cpufreq/policy0
DBG=/sys/kernel/debug
TRIG=$DBG/opp_cpufreq/thermal_cap_khz
STATE=$DBG/opp_cpufreq/state
LIB=$DBG/opp_library/tables
DT_OPPS=/sys/firmware/devicetree/base/cpus/cpu@0/operating-points
TMP=/tmp/cpufreq-scenario

# The device tree's <kHz uV> pairs, one a line, lowest first. The property
# is a list of big-endian 32-bit cells: hexdump prints each cell's bytes in
# order, which reads as the cell in hex.
dt_pairs() {
	hexdump -v -e '4/1 "%02x" " " 4/1 "%02x" "\n"' "$DT_OPPS" |
		while read -r k u; do
			echo "$((0x$k)) $((0x$u))"
		done | sort -n
}

# PAIRS "kHz uV kHz uV ...", ALL the frequencies, N how many; then a few
# by rank: MIN and TOP, LOW2 just above the bottom, BTOP just below the
# top, MID in the middle.
set_table() {
	PAIRS=$(dt_pairs | tr '\n' ' ')
	PAIRS=${PAIRS% }
	ALL=
	N=0
	# shellcheck disable=SC2086 # splitting is the point
	set -- $PAIRS
	while [ $# -ge 2 ]; do
		ALL="$ALL${ALL:+ }$1"
		N=$((N + 1))
		shift 2
	done
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
	k=$1
	# shellcheck disable=SC2086 # splitting is the point
	set -- $PAIRS
	while [ $# -ge 2 ]; do
		[ "$1" = "$k" ] && { echo "$2"; return; }
		shift 2
	done
}

# upto KHZ: the table's frequencies at or below KHZ.
upto() {
	r=
	for f in $ALL; do
		[ "$f" -le "$1" ] && r="$r${r:+ }$f"
	done
	echo "$r"
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

demo() {
	step "the policy: one clock for the 4 CPUs, OPPs from the device tree"
	show scaling_driver affected_cpus cpuinfo_min_freq cpuinfo_max_freq \
		scaling_available_frequencies scaling_available_governors \
		scaling_governor scaling_min_freq scaling_max_freq \
		scaling_cur_freq
	echo "  CPU0 device tree node, operating-points (kHz uV):"
	dt_pairs | while read -r k u; do
		printf '    %s kHz %s uV\n' "$k" "$u"
	done
	lib_view

	step "governors: powersave, then userspace setting speeds, then performance"
	echo powersave >"$POL/scaling_governor"
	show scaling_governor scaling_cur_freq
	echo userspace >"$POL/scaling_governor"
	for f in $LOW2 $BTOP $MID; do
		echo "$f" >"$POL/scaling_setspeed"
		printf '  setspeed %-8s -> scaling_cur_freq %s, recorded %s kHz at %s uV\n' \
			"$f" "$(rd scaling_cur_freq)" "$(state_of recorded_khz)" \
			"$(state_of recorded_uv)"
	done
	echo performance >"$POL/scaling_governor"
	show scaling_governor scaling_cur_freq
	echo "  $STATE:"
	sed 's/^/    /' "$STATE"

	step "ondemand: 3 s idle, 3 s with every CPU busy, 3 s idle (cpufreq stats)"
	echo ondemand >"$POL/scaling_governor"
	for phase in idle busy idle; do
		[ "$phase" = busy ] && spin_start "$(grep -c '^processor' /proc/cpuinfo)"
		window 3
		spin_stop
		printf '  %-5s mean %4s MHz, %3s%% of the time at %s kHz, %3s%% at %s kHz, %s transitions\n' \
			"$phase" "$mean" "$at_min" "$MIN" "$at_top" "$TOP" "$trans"
	done
	echo performance >"$POL/scaling_governor"

	step "thermal event: cap at $BTOP kHz (echo $BTOP > $TRIG)"
	echo "$BTOP" >"$TRIG"
	show scaling_available_frequencies scaling_max_freq scaling_cur_freq \
		cpuinfo_max_freq
	lib_view

	step "it gets hotter: cap at $LOW2 kHz"
	echo "$LOW2" >"$TRIG"
	show scaling_available_frequencies scaling_max_freq scaling_cur_freq

	step "bad input is refused and changes nothing"
	for bad in $((LOW2 + 1)) -1 abc "${BTOP}x" ""; do
		if echo "$bad" >"$TRIG" 2>/dev/null; then r=accepted; else r=refused; fi
		printf '  echo %-10s > thermal_cap_khz: %s\n' "'$bad'" "$r"
	done
	show scaling_available_frequencies scaling_max_freq

	step "cooled down: lift the cap (echo $TOP > $TRIG)"
	echo "$TOP" >"$TRIG"
	show scaling_available_frequencies scaling_max_freq scaling_cur_freq
	lib_view

	step "time in each state, in 10 ms units (cpufreq stats)"
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

# want_lib KHZ: the library's debugfs view of CPU0 must list every OPP of
# the device tree, in order, with its voltage, available if and only if it
# is at or below KHZ.
want_lib() {
	[ -r "$LIB" ] || { why="$why$LIB missing; "; return; }
	k=$1
	exp=
	# shellcheck disable=SC2086 # splitting is the point
	set -- $PAIRS
	while [ $# -ge 2 ]; do
		a=no
		[ "$1" -le "$k" ] && a=yes
		exp="${exp}cpu0 $(($1 * 1000)) $2 $a|"
		shift 2
	done
	got=$(grep '^cpu0 ' "$LIB" | tr -s ' ' | tr '\n' '|')
	[ "$got" = "$exp" ] || why="${why}$LIB: '$got' (want '$exp'); "
}

# cap_is KHZ [WRITTEN]: what an accepted write of the thermal trigger
# must have done, once it returns: exactly the OPPs at or below KHZ
# available, in the library's view and in cpufreq's, the policy capped
# there and the trigger reading KHZ.
cap_is() {
	want scaling_available_frequencies "$(upto "$1")"
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

	# The table the guest booted with, read back from its device tree.
	why=
	[ -r "$DT_OPPS" ] || why="no $DT_OPPS; "
	set_table
	[ "$N" -ge 3 ] || why="${why}$N OPPs in $DT_OPPS ('$PAIRS'), the scenario needs 3; "
	result cpufreq_dt_table_read "$why"
	[ -z "$why" ] || return 0
	note "the device tree's OPPs (kHz uV): $PAIRS"

	why=
	[ -d "$POL" ] || why="no $POL; "
	want scaling_driver opp-cpufreq
	want affected_cpus "0 1 2 3"
	want related_cpus "0 1 2 3"
	result cpufreq_one_policy_for_4_cpus "$why"

	why=
	want scaling_available_frequencies "$ALL"
	want cpuinfo_min_freq "$MIN"
	want cpuinfo_max_freq "$TOP"
	want scaling_min_freq "$MIN"
	want scaling_max_freq "$TOP"
	want scaling_governor performance
	want scaling_cur_freq "$TOP"
	want_state recorded_khz "$TOP"
	want_state recorded_uv "$(uv_of "$TOP")"
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
	want_state recorded_khz "$MIN"
	want_state recorded_uv "$(uv_of "$MIN")"
	result cpufreq_powersave_goes_lowest "$why"

	set_gov userspace
	for f in $ALL; do
		why=
		echo "$f" 2>/dev/null >"$POL/scaling_setspeed" ||
			why="setspeed $f refused; "
		want scaling_cur_freq "$f"
		want_state recorded_khz "$f"
		want_state recorded_uv "$(uv_of "$f")"
		result "cpufreq_userspace_setspeed_$f" "$why"
	done

	# Running at the top when the thermal event comes.
	why=
	cap "$BTOP"
	want scaling_max_freq "$BTOP"
	want cpuinfo_max_freq "$TOP"
	want scaling_cur_freq "$BTOP"
	want_state recorded_khz "$BTOP"
	want_state recorded_uv "$(uv_of "$BTOP")"
	result cpufreq_thermal_cap_below_top_drops_top_opp "$why"

	why=
	echo "$TOP" 2>/dev/null >"$POL/scaling_setspeed"
	want scaling_cur_freq "$BTOP"
	want_state recorded_khz "$BTOP"
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
	# poll that forks is load enough to move ondemand in the guest). The
	# guest's load readings are noisy (its virtual CPUs share the host's),
	# so the checks are on the time spent, not on any one reading: under
	# load, most of it at the top and the mean a quarter of the table's
	# range above that of either idle window; each idle window makes moves,
	# and the load makes at least one.
	why=
	q=$(((TOP - MIN) / 4000))
	set_gov ondemand
	window 4
	idle_mean=$mean
	note "ondemand, idle: mean $mean MHz, $at_min% at the bottom, $at_top% at the top, $trans transitions"
	[ "$trans" -gt 0 ] || why="${why}idle: no transition down from performance's top; "
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
	[ "$busy_mean" -ge $((idle_mean + q)) ] ||
		why="${why}busy: mean $busy_mean MHz, idle $idle_mean; "
	[ "$up" -gt 0 ] || [ "$c0" = "$TOP" ] ||
		why="${why}busy: no move up from $c0 kHz; "
	window 4
	note "ondemand, idle again: mean $mean MHz, $at_min% at the bottom, $at_top% at the top, $trans transitions"
	[ "$mean" -le $((busy_mean - q)) ] ||
		why="${why}idle again: mean $mean MHz, busy $busy_mean; "
	[ "$trans" -gt 0 ] || why="${why}idle again: no transition; "
	result cpufreq_ondemand_follows_load "$why"

	# ondemand under load runs at the policy's maximum: it follows each
	# cap down at once, and up at its next sample.
	why=
	spin_start
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

	rm -rf "$TMP"
}

case "$1" in
demo)
	set_table
	demo
	;;
check)
	SEED=${2:-$(date +%s)}
	check
	;;
*) echo "usage: $0 demo | check [SEED]" >&2; exit 2 ;;
esac
