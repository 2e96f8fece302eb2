#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the User-Mode Linux guest (TIER=uml) with the modules built for it:
# the same initramfs and /init as the QEMU guest, judged by the same
# verdict.py.
#
#   run-uml.sh [--mode check|bench|shell] [--out DIR] [--timeout SEC]
#              [--tests "MOD..."] [--test-args "PARAM=VALUE..."]
#              [--torture-seconds SEC] [--lifecycle CYCLES]
#              [--stall-dump SEC]
#
# The options are those of run-qemu.sh, less what needs the board (the
# demo and the cpufreq scenario: UML has no cpufreq). The kernel runs as a
# process of this host: its console (fd 1) goes to DIR/console.log, the
# guest's report to DIR/channel.log through the serial line ttyS0 (fd 3),
# which /init finds in OPP_CHAN; what the run is meant to do goes to
# DIR/intent (write_intent, for the verdict). UML is one CPU without
# preemption.
#
# A guest still running at --timeout, or (--stall-dump SEC) one that has
# printed nothing on its console or channel for SEC seconds, is taken for
# stuck: before it is killed, DIR/stacks.log gets the stacks as the guest
# sees them (sysrq w and d, asked through UML's management console,
# CONFIG_MCONSOLE: scripts/uml-mconsole.py) and as the host sees
# it (ps -L samples of the UML processes' threads; gdb's backtrace of the
# UML kernel process when gdb is installed), since a guest that no longer
# takes its interrupts cannot answer the first. The console socket is
# UML_DIR/opp/mconsole, UML_DIR being DIR/uml (or a shorter temporary
# directory when DIR is too long a path for a socket).
set -euo pipefail
export TIER=uml
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

mode=check
out=
timeout=${OPP_QEMU_TIMEOUT:-300}
tests=
tests_given=0
test_args=
torture_seconds=
lifecycle=
stall_dump=
while [ $# -gt 0 ]; do
	case "$1" in
	--mode) mode=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--tests) tests=$2; tests_given=1; shift 2 ;;
	--test-args) test_args=$2; shift 2 ;;
	--torture-seconds) torture_seconds=$2; shift 2 ;;
	--lifecycle) lifecycle=$2; shift 2 ;;
	--stall-dump) stall_dump=$2; shift 2 ;;
	*) die "unknown argument $1" ;;
	esac
done
# Without --tests (an empty one loads none), every suite the manifest
# runs on this tier.
[ "$tests_given" = 1 ] || tests=$(manifest_tests | tr '\n' ' ')
tests=${tests% }
case "$mode" in check|bench|shell) ;; *) die "unknown mode $mode" ;; esac

linux=$(kernel_image)
[ -x "$linux" ] || die "no kernel in $(kernel_build) (run TIER=uml scripts/build-kernel.sh)"
[ -n "$out" ] || out=$(mktemp -d)
mkdir -p "$out"
out=$(cd "$out" && pwd)
: >"$out/console.log"
: >"$out/channel.log"
# UML runs no user-space scenario (they need the board's cpufreq).
write_intent "$out" "mode=$mode" "tests=$tests" "test_args=$test_args" \
	"scenarios=" "torture_seconds=$torture_seconds" "lifecycle=$lifecycle"

"$TOP/scripts/mkinitramfs.sh" "$out/initramfs.cpio.gz"
test_dtb - "$out/tables.dtb"

# The management console's socket, UML_DIR/opp/mconsole, must fit in a
# socket's path (107 bytes; "/opp/mconsole" is 13).
udir=$out/uml
if [ $((${#udir} + 13)) -gt 107 ]; then
	udir=$(mktemp -d /tmp/opp-uml.XXXXXX)
else
	rm -rf "$udir"
	mkdir -p "$udir"
fi
mconsole=$udir/opp/mconsole

# UML joins its arguments into the kernel command line: a value with
# spaces keeps its quotes for the kernel's parser.
args=(mem=512M "initrd=$out/initramfs.cpio.gz" "dtb=$out/tables.dtb" rdinit=/init
      "uml_dir=$udir" umid=opp
      con=null ssl=null "ssl0=null,fd:3" OPP_CHAN=/dev/ttyS0
      OPP_NO_RCU_STALL=1 panic_on_warn=1 "OPP_MODE=$mode" "OPP_TESTS=\"$tests\""
      "OPP_TEST_ARGS=\"$test_args\"" "OPP_SCENARIOS=\"\"")
if [ -n "$torture_seconds" ]; then
	args+=(OPP_TORTURE_SECONDS="$torture_seconds")
	timeout=$((timeout + torture_seconds))
fi
if [ -n "$lifecycle" ]; then
	args+=(OPP_LIFECYCLE="$lifecycle")
	timeout=$((timeout + 10 * lifecycle))
fi
# A panicking UML dumps core: not here.
ulimit -c 0
# UML keeps its memory in a file under TMPDIR: the run's own directory.
export TMPDIR=$out

if [ "$mode" = shell ]; then
	exec "$linux" "${args[@]}" "con0=fd:0,fd:1" 3>>"$out/channel.log"
fi

# console_quiet: wait (10 s at most) until the guest's console has not
# grown for a second.
console_quiet() {
	local n=0 size was=-1
	while [ "$n" -lt 10 ]; do
		size=$(stat -c %s "$out/console.log")
		[ "$size" = "$was" ] && return 0
		was=$size
		n=$((n + 1))
		sleep 1
	done
}

# dump_stacks WHY: where the guest is stuck, in $out/stacks.log (see the
# top of this file), while it still runs. The guest's reports are taken
# from its console, which has them whole (scripts/uml-mconsole.py).
# w shows the blocked tasks, d the locks held (lockdep). Not t: asked from
# the management console's interrupt, 6.1's debug UML trips lockdep
# (DEBUG_LOCKS_WARN_ON(lockdep_hardirq_context())) on the first workqueue
# task it shows, which panics the guest (panic_on_warn). Not p: UML has
# no registers for that interrupt (all zero). Where a task spins, the
# CPU is the UML process's own: gdb's backtrace shows it.
dump_stacks() {
	local k i at reply
	log "$1: every task's stack to $out/stacks.log"
	{
		echo "# $1"
		for k in w d; do
			echo
			echo "# the guest: sysrq $k (management console $mconsole)"
			at=$(stat -c %s "$out/console.log")
			if reply=$(python3 "$TOP/scripts/uml-mconsole.py" \
				--timeout 10 "$mconsole" "sysrq $k"); then
				console_quiet
				tail -c +$((at + 1)) "$out/console.log"
			else
				echo "$reply"
				echo "# (no answer, or an error: a guest that no longer takes its interrupts cannot answer)"
			fi
		done
		echo
		echo "# the host: the threads of the UML processes (session $upid), 3 samples 1 s apart"
		for i in 1 2 3; do
			[ "$i" = 1 ] || sleep 1
			date +%T
			ps -L -s "$upid" -o pid,lwp,ppid,stat,pcpu,cputime,wchan:24,comm || true
		done
		echo
		if command -v gdb >/dev/null; then
			echo "# the host: gdb, thread apply all bt, UML kernel process $upid"
			timeout 120 gdb -p "$upid" -batch -nx -ex 'thread apply all bt' </dev/null 2>&1 ||
				echo "# (gdb failed or took more than 120 s)"
		else
			echo "# the host: no gdb installed, no backtrace of the UML process"
		fi
	} >"$out/stacks.log" 2>&1
}

log "booting the UML guest ($mode), results in $out"
start=$(date +%s)
# Its own session and process group: UML's helper processes go with it.
setsid "$linux" "${args[@]}" "con0=null,fd:1" </dev/null \
	>"$out/console.log" 2>&1 3>"$out/channel.log" &
upid=$!
# The guest's last output: the sizes of its two logs, and when they changed.
said=
said_at=$start
while kill -0 "$upid" 2>/dev/null; do
	if grep -q '^opp-verdict-end' "$out/channel.log"; then
		# /init powers off by itself within seconds.
		for _ in $(seq 20); do
			kill -0 "$upid" 2>/dev/null || break
			sleep 0.5
		done
		break
	fi
	now=$(date +%s)
	if [ $((now - start)) -ge "$timeout" ]; then
		dump_stacks "timeout after $timeout s"
		echo "opp-harness: timeout after $timeout s" >>"$out/channel.log"
		break
	fi
	if [ -n "$stall_dump" ]; then
		sizes=$(stat -c %s "$out/console.log" "$out/channel.log" | paste -sd ' ')
		if [ "$sizes" != "$said" ]; then
			said=$sizes
			said_at=$now
		elif [ $((now - said_at)) -ge "$stall_dump" ]; then
			dump_stacks "stalled: nothing printed for $stall_dump s"
			echo "opp-harness: timeout: the guest printed nothing for $stall_dump s" \
				>>"$out/channel.log"
			break
		fi
	fi
	sleep 0.5
done
kill -KILL -- "-$upid" 2>/dev/null || true
wait 2>/dev/null || true
log "guest ran for $(($(date +%s) - start)) s"
# The socket's directory, unless it is the run's own.
[ "$udir" = "$out/uml" ] || rm -rf "$udir"

# The run is judged from /init's "opp-guest: start" on (verdict.py reads
# console.log); the kernel's boot up to there, /init's first forks
# included, goes to boot.log. The reason: UML 6.1 walks a process's VMAs
# without the mmap lock when it forks (force_flush_all()), which PROVE_RCU
# reports as two "suspicious RCU usage" warnings at the first fork, in
# every boot, before any module of ours is loaded. A boot splat is still
# shown here, never counted.
if grep -q '^opp-guest: start' "$out/console.log"; then
	mv "$out/console.log" "$out/console.full"
	sed '/^opp-guest: start/q' "$out/console.full" >"$out/boot.log"
	# The verdict wants kmemleak's start: the one line of the boot that
	# console.log keeps.
	{
		grep 'Kernel memory leak detector initialized' "$out/console.full" || true
		sed -n '/^opp-guest: start/,$p' "$out/console.full"
	} >"$out/console.log"
	rm "$out/console.full"
	n=$(grep -cE 'BUG:|WARNING:|Oops' "$out/boot.log" || true)
	[ "$n" -eq 0 ] ||
		log "the kernel's boot printed $n warnings, not judged (see $out/boot.log)"
fi
