# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The cpufreq scenario's fuzz step: malformed writes to the thermal
# trigger, fixed ones and random ones drawn from the run's seed (fuzz.awk),
# each refused with EINVAL and changing nothing. Functions only, on lib.sh's
# helpers; SCENARIO_LIB (the driver's) holds fuzz.awk.

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
	fixed_inputs | awk -v count="$1" -v seed="$2" -v all="$ALL" \
		-f "$SCENARIO_LIB/fuzz.awk"
}

# fixed_inputs: the fixed malformed inputs, F being BTOP.
fixed_inputs() {
	f=$BTOP
	# The lone newline is what `echo >` writes for an empty value; a
	# zero-length write(2) cannot be made from here.
	sed -e "s/@FP1@/$((f + 1))/g" -e "s/@FM1@/$((f - 1))/g" \
	    -e "s/@FHEX@/$(printf '%06X' "$f")/g" -e "s/@F18@/$(printf '%018d' "$f")/g" \
	    -e "s/@TOP23@/$(printf '%023d' "$TOP")/g" -e "s/@ABOVE@/$((TOP + TOP / 5))/g" \
	    -e "s/@TWICE@/$((TOP * 2))/g" -e "s/@F@/$f/g" <<'END'
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

# The fuzz, uncapped then capped; the trigger works as before after it.
check_fuzz() {
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
}
