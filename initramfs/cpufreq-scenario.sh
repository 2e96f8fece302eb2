#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The cpufreq story of the guest, told from user space, with opp.ko and
# opp_cpufreq.ko loaded (the OPPs come from the CPU nodes of the device
# tree that scripts/run-qemu.sh patches).
#
#   cpufreq-scenario demo    show it, step by step, on stdout
#   cpufreq-scenario check   assert it: one "check NAME ok|failed REASON"
#                            line per step on stdout, for the verdict
#
# Exits 0 once every step has run (failed steps are reported, not fatal);
# any other exit means the scenario stopped half-way.

POL=/sys/devices/system/cpu/cpufreq/policy0
DBG=/sys/kernel/debug
TRIG=$DBG/opp_cpufreq/thermal_cap_khz
STATE=$DBG/opp_cpufreq/state
LIB=$DBG/opp_library/tables
TMP=/tmp/cpufreq-scenario
# What run-qemu.sh puts in the device tree: kHz and uV.
ALL="200000 400000 600000 800000 1000000"
uv_of() {
	case "$1" in
	200000) echo 950000 ;;
	400000) echo 1000000 ;;
	600000) echo 1050000 ;;
	800000) echo 1150000 ;;
	1000000) echo 1250000 ;;
	esac
}

# Every value on one line, whitespace squeezed.
get() {
	# shellcheck disable=SC2046 # splitting is the point
	set -- $(cat "$@" 2>&1)
	echo "$*"
}
rd() { get "$POL/$1"; }
state_of() { sed -n "s/^$1 //p" "$STATE"; }

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
	hexdump -v -e '2/4 "%u " "\n"' \
		/sys/firmware/devicetree/base/cpus/cpu@0/operating-points 2>/dev/null |
		while read -r k u; do
			# the property is big-endian, hexdump reads it little-endian
			printf '    %s\n' "$(be32 "$k") kHz $(be32 "$u") uV"
		done
	lib_view

	step "governors: powersave, then userspace setting speeds, then performance"
	echo powersave >"$POL/scaling_governor"
	show scaling_governor scaling_cur_freq
	echo userspace >"$POL/scaling_governor"
	for f in 400000 800000 600000; do
		echo "$f" >"$POL/scaling_setspeed"
		printf '  setspeed %-8s -> scaling_cur_freq %s, recorded %s kHz at %s uV\n' \
			"$f" "$(rd scaling_cur_freq)" "$(state_of recorded_khz)" \
			"$(state_of recorded_uv)"
	done
	echo performance >"$POL/scaling_governor"
	show scaling_governor scaling_cur_freq
	echo "  $STATE:"
	sed 's/^/    /' "$STATE"

	step "thermal event: cap at 800000 kHz (echo 800000 > $TRIG)"
	echo 800000 >"$TRIG"
	show scaling_available_frequencies scaling_max_freq scaling_cur_freq \
		cpuinfo_max_freq
	lib_view

	step "it gets hotter: cap at 400000 kHz"
	echo 400000 >"$TRIG"
	show scaling_available_frequencies scaling_max_freq scaling_cur_freq

	step "bad input is refused and changes nothing"
	for bad in 500000 -1 abc 800000x ""; do
		if echo "$bad" >"$TRIG" 2>/dev/null; then r=accepted; else r=refused; fi
		printf '  echo %-10s > thermal_cap_khz: %s\n' "'$bad'" "$r"
	done
	show scaling_available_frequencies scaling_max_freq

	step "cooled down: lift the cap (echo 1000000 > $TRIG)"
	echo 1000000 >"$TRIG"
	show scaling_available_frequencies scaling_max_freq scaling_cur_freq
	lib_view

	step "time in each state, in 10 ms units (cpufreq stats)"
	sed 's/^/  /' "$POL/stats/time_in_state"
	show stats/total_trans
}

# A big-endian 32-bit cell that hexdump read little-endian.
be32() {
	v=$1
	echo $(((v & 0xff) << 24 | (v & 0xff00) << 8 | (v >> 8 & 0xff00) | (v >> 24 & 0xff)))
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

# cap KHZ: the thermal trigger, which must accept a table frequency.
cap() {
	echo "$1" 2>/dev/null >"$TRIG" || why="${why}cap $1 refused; "
}

# want_lib KHZ yes|no: the library's debugfs view must list CPU0's OPP at
# KHZ, with its voltage, as available (yes) or not (no).
want_lib() {
	[ -r "$LIB" ] || { why="$why$LIB missing; "; return; }
	line=$(grep -E "^cpu0 +$(($1 * 1000)) " "$LIB")
	[ "$(printf "%s" "$line" | tr -s " ")" = "cpu0 $(($1 * 1000)) $(uv_of "$1") $2" ] ||
		why="${why}$LIB: '$line' (want $1 kHz, available $2); "
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
# fixed ones, then COUNT random ones from awk's generator (the guest's
# /dev/urandom may block for minutes before the entropy pool is ready).
# Each is malformed by construction: the generator repairs any random one
# that happens to be a well-formed table frequency.
gen_inputs() {
	# The lone newline is what `echo >` writes for an empty value; a
	# zero-length write(2) cannot be made from here.
	cat <<'END'
\n
 
\t
\r\n
\0
abc
-1
-800000
+800000
 800000
800000 
800000\n\n
800000\r\n
\n800000
800000x
0x800000
0X0C3500
8e5
800,000
800.000
800_000
800 000
800000\0
\0800000
800000\0garbage
800001
799999
0
00
1
100000
1200000
2000000
4294967295
4294967296
18446744073709551615
18446744073709551616
99999999999999999999999
800000;reboot
$(id)
cap=800000
800000 kHz
800MHz
\0377\0376
\0342\0200\0213800000
\0331\0241\0331\0240
000000000000800000
00000000000000001000000\n
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
	BEGIN {
		srand(seed)
		nf = split(all, freq, " ")
		for (i = 0; i < 256; i++)
			esc[i] = sprintf("\\0%03o", i)
		# too long, whatever the bytes
		print many("8", 17); print many("8", 64)
		print many("0", 4089) "800000"; print many("8", 4096)
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
				s = r(2000001) (r(2) ? "\\n" : "")
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
			# Never a well-formed table frequency.
			v = s
			sub(/\\n$/, "", v)
			if (v ~ /^[0-9]+$/ && length(v) <= 16 &&
			    (" " all " ") ~ (" " (v + 0) " "))
				s = s "x"
			print s
		}
	}'
}

# fuzz NAME COUNT: the fixed malformed inputs, then COUNT random ones.
fuzz() {
	nref=0
	nbad=0
	fwhy=
	seed=$(($(date +%s) + $$))
	gen_inputs "$2" "$seed" >"$TMP/inputs"
	snap
	before=$snap
	while IFS= read -r line; do
		refuse "$line"
	done <"$TMP/inputs"

	if [ "$nbad" -eq 0 ] && [ "$nref" -gt "$2" ]; then
		why=
	else
		why="$nbad of $nref inputs not refused cleanly (seed $seed); first: $fwhy"
	fi
	result "cpufreq_trigger_fuzz_${1}_${nref}_inputs" "$why"
}

check() {
	mkdir -p "$TMP"

	why=
	[ -d "$POL" ] || why="no $POL; "
	want scaling_driver opp-cpufreq
	want affected_cpus "0 1 2 3"
	want related_cpus "0 1 2 3"
	result cpufreq_one_policy_for_4_cpus "$why"

	why=
	want scaling_available_frequencies "$ALL"
	want cpuinfo_min_freq 200000
	want cpuinfo_max_freq 1000000
	want scaling_min_freq 200000
	want scaling_max_freq 1000000
	want scaling_governor performance
	want scaling_cur_freq 1000000
	want_state recorded_khz 1000000
	want_state recorded_uv 1250000
	result cpufreq_initial_table_from_dt "$why"

	why=
	m=$(stat -c '%a %u' "$TRIG" 2>&1)
	[ "$m" = "600 0" ] || why="mode/owner '$m' (want '600 0'); "
	[ "$(get "$TRIG")" = 1000000 ] || why="${why}reads '$(get "$TRIG")'; "
	m=$(stat -c '%a %u' "$STATE" 2>&1)
	[ "$m" = "400 0" ] || why="${why}state mode/owner '$m'; "
	result cpufreq_trigger_root_only "$why"

	why=
	want_lib 1000000 yes
	want_lib 200000 yes
	result cpufreq_library_view_all_available "$why"

	why=
	set_gov powersave
	want scaling_cur_freq 200000
	want_state recorded_khz 200000
	want_state recorded_uv 950000
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
	cap 800000
	want scaling_available_frequencies "200000 400000 600000 800000"
	want scaling_max_freq 800000
	want cpuinfo_max_freq 1000000
	want scaling_cur_freq 800000
	want_state recorded_khz 800000
	want_state recorded_uv 1150000
	want_state available_max_khz 800000
	[ "$(get "$TRIG")" = 800000 ] || why="${why}trigger reads '$(get "$TRIG")'; "
	result cpufreq_thermal_cap_800000_drops_top_opp "$why"

	why=
	want_lib 1000000 no
	want_lib 800000 yes
	result cpufreq_library_view_top_disabled "$why"

	why=
	echo 1000000 2>/dev/null >"$POL/scaling_setspeed"
	want scaling_cur_freq 800000
	want_state recorded_khz 800000
	result cpufreq_capped_setspeed_clamped "$why"

	why=
	cap 400000
	want scaling_available_frequencies "200000 400000"
	want scaling_max_freq 400000
	want scaling_cur_freq 400000
	result cpufreq_thermal_cap_400000 "$why"

	why=
	set_gov performance
	want scaling_cur_freq 400000
	want scaling_max_freq 400000
	result cpufreq_performance_under_cap "$why"

	why=
	cap 1000000
	want scaling_available_frequencies "$ALL"
	want scaling_max_freq 1000000
	want scaling_cur_freq 1000000
	want_state available_max_khz 1000000
	result cpufreq_thermal_recovery "$why"

	why=
	want_lib 1000000 yes
	want_lib 600000 yes
	result cpufreq_library_view_recovered "$why"

	# The userspace governor's request survives a cap and comes back.
	why=
	set_gov userspace
	echo 600000 2>/dev/null >"$POL/scaling_setspeed"
	cap 400000
	want scaling_cur_freq 400000
	cap 1000000
	want scaling_cur_freq 600000
	want scaling_available_frequencies "$ALL"
	result cpufreq_setspeed_restored_after_cap "$why"

	# A user's own scaling_max_freq and the thermal cap: the lower wins.
	why=
	echo 600000 >"$POL/scaling_max_freq"
	cap 800000
	want scaling_max_freq 600000
	cap 400000
	want scaling_max_freq 400000
	cap 1000000
	want scaling_max_freq 600000
	echo 1000000 >"$POL/scaling_max_freq"
	want scaling_max_freq 1000000
	result cpufreq_user_max_and_cap_combine "$why"

	# The trigger accepts the table's frequencies, written the way the
	# fuzz below writes (so its refusals are the trigger's, not echo's).
	why=
	for f in $ALL 0000000000800000 1000000; do
		# shellcheck disable=SC3037 # busybox's echo has -n
		echo -n "$f" 2>/dev/null >"$TRIG" ||
			why="${why}'$f' without newline refused; "
	done
	want scaling_available_frequencies "$ALL"
	result cpufreq_trigger_accepts_table_freqs "$why"

	set_gov performance
	fuzz uncapped 200
	cap 600000
	fuzz capped 80
	why=
	want scaling_available_frequencies "200000 400000 600000"
	want scaling_max_freq 600000
	cap 1000000
	want scaling_max_freq 1000000
	result cpufreq_state_after_fuzz "$why"

	# ondemand moves the frequency on its own while caps come and go.
	why=
	set_gov ondemand
	(while :; do :; done) &
	busy=$!
	for f in 800000 400000 1000000 200000 600000 1000000 800000 1000000; do
		cap "$f"
		sleep 0.2 2>/dev/null || sleep 1
	done
	kill "$busy"
	wait "$busy" 2>/dev/null
	want scaling_available_frequencies "$ALL"
	want scaling_max_freq 1000000
	cur=$(rd scaling_cur_freq)
	case " $ALL " in *" $cur "*) ;; *) why="${why}cur '$cur' not in table; " ;; esac
	set_gov performance
	want scaling_cur_freq 1000000
	n=$(rd stats/total_trans)
	[ "${n:-0}" -gt 10 ] || why="${why}stats/total_trans '$n'; "
	result cpufreq_ondemand_with_caps "$why"

	rm -rf "$TMP"
}

case "$1" in
demo) demo ;;
check) check ;;
*) echo "usage: $0 demo|check" >&2; exit 2 ;;
esac
