#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kernel's own cpufreq selftests (tools/testing/selftests/cpufreq of
# the guest kernel's tree, which scripts/mkinitramfs.sh copies into
# /lib/selftests/cpufreq) against the cpufreq driver loaded, run by the
# guest's static bash: cpufreq's own user of a driver, after the project's
# scenario.
#
#   cpufreq-selftests TEST[:ROUNDS]...
#
# TEST is a main.sh -t function: basic (read and rewrite every cpufreq
# file, stats/reset included; hotplug cycles; every frequency through
# userspace; every governor), sptest1 (ondemand and conservative in turn
# on each policy), sptest2 (the same on every policy at once, in a loop),
# sptest3 (eight shells racing ondemand against userspace on every
# policy, in a loop). ROUNDS caps every loop of the test at that many
# rounds: main.sh takes no count, its loops run `seq`, and a `seq` first
# in its PATH stops there (sptest2 loops 101 times, sptest3 2000 times in
# each of 8 shells: hours on the emulated CPUs). Without ROUNDS the
# loops run as written. main.sh asks `sudo tee` of sptest3: the guest
# runs as root, and a `sudo` first in its PATH runs the command as it is.
#
# One line "check cpufreq_selftest_TEST ok" or "check
# cpufreq_selftest_TEST failed REASON" per test on stdout, for the
# verdict: a test fails if main.sh exits non-zero, if it complains (its
# "Warning:", a governor or directory missing, no CPU managed), if bash
# reports an error (a write refused, a command missing) or if the kernel
# log shows a splat from the test's start on. Two kinds of error are
# excused, each for a reason that is no driver's: main.sh reads every
# file, stats/reset too, which is write-only (its `cat` is refused); and
# if the kernel lacks a governor that main.sh switches to (sptest1 and
# sptest2 switch to conservative), the refused switch to it, which main.sh
# does not check for (such a governor is named on stderr). The verdict
# judges the console as well: a splat that panics the guest
# (panic_on_warn) leaves the test unreported, hence failed. How long each
# test took, and the tail of a failed test's output, go to stderr.

SRC=/lib/selftests/cpufreq
TMP=/tmp/cpufreq-selftests
# The kernel log lines that fail a test; the verdict has the full list.
SPLAT='BUG:|WARNING:|Oops|Internal error|Unable to handle|KASAN|UBSAN:|INFO: |circular locking|inconsistent lock state|suspicious RCU|blocked for more than|soft lockup|Kernel panic'
# What main.sh prints when it cannot test something.
COMPLAINT='Warning:|not available|not created|No cpu is managed|Invalid \[-f\]'
# What main.sh writes to stderr whatever the driver (see above).
EXCUSED='^cat: can.t open .*/stats/reset.: Permission denied$'
# The governors that main.sh switches to, besides the available ones.
GOVERNORS="ondemand conservative userspace"

note() { echo "cpufreq-selftests: $*" >&2; }

# The commands that come first in main.sh's PATH.
shims() {
	mkdir -p "$TMP/bin"
	cat >"$TMP/bin/sudo" <<'END'
#!/bin/sh
exec "$@"
END
	cat >"$TMP/bin/seq" <<'END'
#!/bin/sh
[ -n "$OPP_SEQ_MAX" ] || exec busybox seq "$@"
busybox seq "$@" | head -n "$OPP_SEQ_MAX"
END
	chmod 755 "$TMP/bin/sudo" "$TMP/bin/seq"
}

# run TEST ROUNDS: one test, judged.
run() {
	t=$1
	out=$TMP/$t
	start="opp-guest: cpufreq selftest $t starts"
	echo "$start" >/dev/kmsg
	t0=$(cut -d ' ' -f 1 /proc/uptime)
	# main.sh sources its helpers from the current directory.
	(cd "$SRC" && PATH=$TMP/bin:$PATH OPP_SEQ_MAX=$2 \
		bash ./main.sh -t "$t" -o "$out") >"$out.log" 2>"$out.err"
	rc=$?
	t1=$(cut -d ' ' -f 1 /proc/uptime)
	note "$t${2:+ ($2 rounds a loop)}: exit status $rc, $(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s, $(wc -l <"$out.log") lines of output"

	why=
	[ "$rc" -eq 0 ] || why="main.sh -t $t: exit status $rc; "
	c=$(grep -m 1 -E "$COMPLAINT" "$out.log")
	[ -z "$c" ] || why="${why}main.sh: '$c'; "
	grep -vE "$EXCUSED" "$out.err" >"$out.errors"
	e=$(grep -m 1 . "$out.errors")
	[ -z "$e" ] || why="${why}stderr: '$e' ($(grep -c . "$out.errors") lines); "
	dmesg >"$out.dmesg"
	if grep -qF "$start" "$out.dmesg"; then
		s=$(sed -n "/$start/,\$p" "$out.dmesg" | grep -m 1 -E "$SPLAT")
		[ -z "$s" ] || why="${why}kernel: '$s'; "
	else
		why="${why}the kernel log lost the test's start; "
	fi
	if [ -z "$why" ]; then
		echo "check cpufreq_selftest_$t ok"
	else
		echo "check cpufreq_selftest_$t failed $why"
		note "$t: the last lines of its output and its errors:"
		tail -n 20 "$out.log" >&2
		tail -n 20 "$out.err" >&2
	fi
}

[ $# -gt 0 ] || { echo "usage: $0 TEST[:ROUNDS]..." >&2; exit 2; }
command -v bash >/dev/null || { echo "no bash in the guest" >&2; exit 1; }
[ -f "$SRC/main.sh" ] || { echo "no $SRC/main.sh" >&2; exit 1; }
rm -rf "$TMP"
shims
read -r avail </sys/devices/system/cpu/cpufreq/policy0/scaling_available_governors
for g in $GOVERNORS; do
	case " $avail " in
	*" $g "*) ;;
	*)
		note "the kernel has no $g governor: main.sh's switches to it are refused, and their errors excused"
		EXCUSED="$EXCUSED|^governor\.sh: line [0-9]+: echo: write error: Invalid argument$"
		;;
	esac
done
# Since 6.12 a policy has a boost file of its own, and the kernel refuses
# every write to it (the same value too) while the global switch is off;
# basic writes each file back. With the switch on, each write is judged.
boost=/sys/devices/system/cpu/cpufreq/boost
boost_was=
if grep -q . /sys/devices/system/cpu/cpufreq/policy*/boost 2>/dev/null &&
	[ -w "$boost" ] && read -r boost_was <"$boost" && [ "$boost_was" = 0 ]; then
	note "the global boost switch is on while the tests run (a policy's boost file refuses writes while it is off)"
	echo 1 >"$boost"
fi
for arg in "$@"; do
	case "$arg" in
	*:*) run "${arg%%:*}" "${arg#*:}" ;;
	*) run "$arg" "" ;;
	esac
done
[ "$boost_was" = 0 ] && echo 0 >"$boost"
exit 0
