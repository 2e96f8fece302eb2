#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the User-Mode Linux guest (TIER=uml) with the modules built for it:
# the same initramfs and /init as the QEMU guest, judged by the same
# verdict.sh.
#
#   run-uml.sh [--mode check|bench|shell] [--out DIR] [--timeout SEC]
#              [--tests "MOD..."] [--test-args "PARAM=VALUE..."]
#              [--torture-seconds SEC] [--lifecycle CYCLES]
#
# The options are those of run-qemu.sh, less what needs the board (the
# demo and the cpufreq scenario: UML has no cpufreq). The kernel runs as a
# process of this host: its console (fd 1) goes to DIR/console.log, the
# guest's report to DIR/channel.log through the serial line ttyS0 (fd 3),
# which /init finds in OPP_CHAN. UML is one CPU without preemption.
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
while [ $# -gt 0 ]; do
	case "$1" in
	--mode) mode=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--tests) tests=$2; tests_given=1; shift 2 ;;
	--test-args) test_args=$2; shift 2 ;;
	--torture-seconds) torture_seconds=$2; shift 2 ;;
	--lifecycle) lifecycle=$2; shift 2 ;;
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
: >"$out/console.log"
: >"$out/channel.log"

"$TOP/scripts/mkinitramfs.sh" "$out/initramfs.cpio.gz"
test_dtb - "$out/tables.dtb"

# UML joins its arguments into the kernel command line: a value with
# spaces keeps its quotes for the kernel's parser.
args=(mem=512M "initrd=$out/initramfs.cpio.gz" "dtb=$out/tables.dtb" rdinit=/init
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

log "booting the UML guest ($mode), results in $out"
start=$(date +%s)
# Its own session and process group: UML's helper processes go with it.
setsid "$linux" "${args[@]}" "con0=null,fd:1" </dev/null \
	>"$out/console.log" 2>&1 3>"$out/channel.log" &
upid=$!
while kill -0 "$upid" 2>/dev/null; do
	if grep -q '^opp-verdict-end' "$out/channel.log"; then
		# /init powers off by itself within seconds.
		for _ in $(seq 20); do
			kill -0 "$upid" 2>/dev/null || break
			sleep 0.5
		done
		break
	fi
	if [ $(($(date +%s) - start)) -ge "$timeout" ]; then
		log "timeout after $timeout s"
		echo "opp-harness: timeout after $timeout s" >>"$out/channel.log"
		break
	fi
	sleep 0.5
done
kill -KILL -- "-$upid" 2>/dev/null || true
wait 2>/dev/null || true
log "guest ran for $(($(date +%s) - start)) s"

# The run is judged from /init's "opp-guest: start" on (verdict.sh reads
# console.log); the kernel's boot up to there, /init's first forks
# included, goes to boot.log. The reason: UML 6.1 walks a process's VMAs
# without the mmap lock when it forks (force_flush_all()), which PROVE_RCU
# reports as two "suspicious RCU usage" warnings at the first fork, in
# every boot, before any module of ours is loaded. A boot splat is still
# shown here, never counted.
if grep -q '^opp-guest: start' "$out/console.log"; then
	mv "$out/console.log" "$out/console.full"
	sed '/^opp-guest: start/q' "$out/console.full" >"$out/boot.log"
	# The verdict reads what the run was meant to do from the kernel
	# command line, and wants kmemleak's start: the two lines of the boot
	# that console.log keeps.
	{
		grep -E 'Kernel command line: |Kernel memory leak detector initialized' \
			"$out/console.full" || true
		sed -n '/^opp-guest: start/,$p' "$out/console.full"
	} >"$out/console.log"
	rm "$out/console.full"
	n=$(grep -cE 'BUG:|WARNING:|Oops' "$out/boot.log" || true)
	[ "$n" -eq 0 ] ||
		log "the kernel's boot printed $n warnings, not judged (see $out/boot.log)"
fi
