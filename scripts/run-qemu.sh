#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the guest of $TIER with the modules built for $FLAVOUR: the
# vexpress-a9 board (arm), or the virt board with a Cortex-A57 (arm64).
#
#   run-qemu.sh [--mode check|demo|bench|shell] [--out DIR] [--timeout SEC]
#               [--tests "MOD..."] [--test-args "PARAM=VALUE..."]
#               [--scenarios "NAME..."] [--torture-seconds SEC]
#               [--lifecycle CYCLES] [--seed N] [--append "PARAM=VALUE..."]
#
# --tests: the KUnit modules the guest loads in check mode, in order
# (default: the manifest's for this tier);
# --test-args: module parameters for each of them (and for opp_bench).
# --append: more kernel parameters (the harness self-check boots with
# kmemleak=off, for one).
# --scenarios: user-space scenarios the guest runs in check mode after the
# KUnit modules (initramfs/init: scenario_NAME), e.g. "cpufreq".
# --torture-seconds: how long opp_torture runs (the timeout grows by it).
# --lifecycle: load/unload cycles of the library under a consumer, after
# the scenarios (the timeout grows by 10 s a cycle).
# --seed: the seed of every pseudo-random choice in the guest (opp_torture,
# the scenarios' fuzz); without it one is picked and printed, so that any
# run can be replayed with --seed.
# --timeout: seconds before the host gives up on the guest (default
# $OPP_QEMU_TIMEOUT, else 300, plus 600 a scenario: the cpufreq one alone
# runs for 230 s on an idle host); the report then ends with a timeout line.
#
# The guest boots on a copy of the board's device tree whose CPU nodes
# point at two clusters' operating-points-v2 tables (cluster_dtb), the
# OPPs that the cpufreq sample reads through the library and that the
# cpufreq scenario reads back from /sys/firmware/devicetree, and which
# carries the opp_of_v2 and
# opp_set_rate suites' tables (test_dtb), the OPP tables of every board
# of the kernel tree when opp_of_corpus_test runs (corpus_dtb) and, on
# vexpress, the node that points the opp_board_clock suite at a board
# oscillator (board_clock_dtb).
# OPP_DTB=FILE boots on FILE instead. The vexpress tree comes from the
# kernel build; QEMU makes the virt board's itself, and dumps it (-machine
# dumpdtb) for the same machine options as the boot.
#
# The console goes to DIR/console.log (and to the terminal for demo and
# shell), the guest's report to DIR/channel.log through a line of its own
# (vexpress: the second serial line, ttyAMA1; virt, which has one PL011:
# a virtio console, hvc0), QEMU's own messages to DIR/qemu.log, what the
# run is meant to do to DIR/intent (write_intent, for the verdict). In check,
# demo and bench modes QEMU is stopped as soon as the report is complete,
# before the board's power-off path can print its own noise.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

mode=check
out=
timeout=
tests=
tests_given=0
test_args=
scenarios=
torture_seconds=
lifecycle=
seed=
extra_append=
while [ $# -gt 0 ]; do
	case "$1" in
	--mode) mode=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--tests) tests=$2; tests_given=1; shift 2 ;;
	--test-args) test_args=$2; shift 2 ;;
	--scenarios) scenarios=$2; shift 2 ;;
	--torture-seconds) torture_seconds=$2; shift 2 ;;
	--lifecycle) lifecycle=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--append) extra_append=$2; shift 2 ;;
	*) die "unknown argument $1" ;;
	esac
done
# Without --tests (an empty one loads none), every suite the manifest
# runs on this tier.
[ "$tests_given" = 1 ] || tests=$(manifest_tests | tr '\n' ' ')
tests=${tests% }
case "$mode" in check|demo|bench|shell) ;; *) die "unknown mode $mode" ;; esac
if [ -z "$seed" ]; then
	seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
	seed=$((seed % 1000000 + 1))
fi
[[ $seed =~ ^[1-9][0-9]{0,8}$ ]] ||
	die "--seed wants a number from 1 to 999999999, not '$seed'"

build=$(kernel_build)
zimage=$(kernel_image)
[ -f "$zimage" ] || die "no kernel in $build (run scripts/build-kernel.sh)"
[ -n "$out" ] || out=$(mktemp -d)
mkdir -p "$out"
: >"$out/console.log"
: >"$out/channel.log"
write_intent "$out" "mode=$mode" "tests=$tests" "test_args=$test_args" \
	"scenarios=$scenarios" "torture_seconds=$torture_seconds" \
	"lifecycle=$lifecycle" "seed=$seed" "append=$extra_append"
case "$TIER" in
arm)
	# Since 6.5 the ARM dts live in one directory per vendor.
	dtb=$build/arch/arm/boot/dts/arm/vexpress-v2p-ca9.dtb
	[ -f "$dtb" ] || dtb=$build/arch/arm/boot/dts/vexpress-v2p-ca9.dtb
	board=(qemu-system-arm -M vexpress-a9 -smp 4 -m 512)
	# The board's sound chip (PL041) plays into a backend that discards
	# it: without one named, QEMU probes the host's sound systems and
	# prints a line for each one it lacks.
	devices=(-audiodev "none,id=nosound" -global pl041.audiodev=nosound)
	chan_dev=
	board_append=
	;;
arm64)
	# No network: the board would bring a PCI NIC and look for its ROM.
	board=(qemu-system-aarch64 -M virt -cpu cortex-a57 -smp 4 -m 512 -nic none)
	dtb=$out/virt.dtb
	"${board[@]}" -machine "dumpdtb=$dtb" -display none >"$out/qemu.log" 2>&1 ||
		die "QEMU could not dump the virt board's device tree"
	# The report channel: a virtio console on the board's virtio-mmio bus.
	devices=(-device virtio-serial-device
		 -chardev "file,id=chan,path=$out/channel.log"
		 -device "virtconsole,chardev=chan")
	chan_dev=/dev/hvc0
	# KCSAN_STRICT forces the watcher of races between a task and an
	# interrupt on the same CPU on (Kconfig offers no way off), and the
	# 6.1 kernel's own tick code then panics a boot within minutes:
	# "data-race in tick_irq_enter / tick_nohz_idle_got_tick", the idle
	# task's store to a bitfield of its CPU's tick_sched read by the timer
	# interrupt that interrupted it. Races between CPUs, the torture's
	# interrupt-context lookups against updaters on other CPUs included,
	# are still watched.
	board_append=" kcsan.interrupt_watcher=0"
	# Functions of the 6.1 kernel whose own races KCSAN_STRICT reports,
	# between CPUs, whatever runs: /init puts them on KCSAN's report
	# filter, which drops a report only if the top frame of one of its
	# two accesses is one of them (never a function of ours).
	# - hrtimer_active: every CPU's scheduler tick reads, without a lock,
	#   base->running of the hrtimer base its runqueue's hrtick timer was
	#   initialised on (CPU 0's, as the timer never starts: the HRTICK
	#   feature is off), while CPU 0's timer interrupt writes it plainly
	#   in __run_hrtimer(): "data-race in __hrtimer_run_queues /
	#   hrtimer_active", reported in the torture's first seconds.
	# - osq_unlock: the optimistic-spin queue of a contended mutex reads
	#   its successor's node->next plainly while that CPU's osq_lock()
	#   writes it with a marked store: "data-race in osq_lock /
	#   osq_unlock", reported once in a few runs of the torture, whose
	#   updaters contend for a mutex of the test (mainline later marked
	#   that read). The report's two frames are the kernel's mutex code.
	# - vring_interrupt: the report channel's virtio ring. The handler
	#   reads the used index plainly while QEMU, on a thread of its own,
	#   writes the next one: "data-race in vring_interrupt", "race at
	#   unknown origin" (the device's store is not instrumented), seen
	#   once in a canary boot as /init began to write the channel.
	board_append+=" OPP_KCSAN_FILTER=\"hrtimer_active osq_unlock vring_interrupt\""
	;;
*) die "run-qemu.sh boots the arm and arm64 guests, not $TIER" ;;
esac

"$TOP/scripts/mkinitramfs.sh" "$out/initramfs.cpio.gz"

if [ -n "${OPP_DTB:-}" ]; then
	dtb=$OPP_DTB
else
	[ -f "$dtb" ] || die "no device tree $dtb in the kernel build"
	test_dtb "$dtb" "$out/board-opp.dtb"
	dtb=$out/board-opp.dtb
	# The kernel tree's own OPP tables, for the opp_of_corpus suite (the
	# KUnit modules load in check mode) and the bench's corpus rows only:
	# every other boot is spared the larger tree, which costs each boot
	# some 20 s of sysfs entries.
	case "$mode: $tests " in
	"check: opp_of_corpus_test "* | "check: "*" opp_of_corpus_test "* | "bench: "*)
		corpus_dtb "$dtb" ;;
	esac
	# The opp_board_clock suite's oscillator: a vexpress one.
	if [ "$TIER" = arm ]; then
		board_clock_dtb "$dtb"
	fi
	# The cpufreq sample's clusters, cluster 0 on that oscillator.
	cluster_dtb "$dtb"
	for cpu in 0 1 2 3; do
		fdtget "$dtb" "/cpus/cpu@$cpu" operating-points-v2 >/dev/null 2>&1 ||
			die "cpu@$cpu of $dtb has no operating-points-v2 table"
	done
fi

if [ -z "$timeout" ]; then
	timeout=${OPP_QEMU_TIMEOUT:-300}
	for _ in $scenarios; do
		timeout=$((timeout + 600))
	done
fi
append="console=ttyAMA0 panic=-1 panic_on_warn=1$board_append OPP_MODE=$mode"
[ -n "$chan_dev" ] && append+=" OPP_CHAN=$chan_dev"
append+=" OPP_TESTS=\"$tests\" OPP_TEST_ARGS=\"$test_args\""
append+=" OPP_SCENARIOS=\"$scenarios\" OPP_SEED=$seed"
if [ -n "$torture_seconds" ]; then
	# The guest hands it to opp_torture only; the run lasts that much longer.
	append+=" OPP_TORTURE_SECONDS=$torture_seconds"
	timeout=$((timeout + torture_seconds))
fi
if [ -n "$lifecycle" ]; then
	# Load/unload cycles of the library and a consumer, after the suites.
	append+=" OPP_LIFECYCLE=$lifecycle"
	timeout=$((timeout + 10 * lifecycle))
fi
[ -n "$extra_append" ] && append+=" $extra_append"
qemu=("${board[@]}" -no-reboot
      -kernel "$zimage" -dtb "$dtb" -initrd "$out/initramfs.cpio.gz"
      -append "$append" -display none -monitor none "${devices[@]}")
# The report channel's serial line (vexpress), after the console's.
chan_serial=()
[ -n "$chan_dev" ] || chan_serial=(-serial "file:$out/channel.log")

if [ "$mode" = shell ]; then
	exec "${qemu[@]}" -serial mon:stdio "${chan_serial[@]}"
fi

log "booting the guest ($mode, seed $seed), results in $out"
start=$(date +%s)
# QEMU's own messages (its "terminating on signal" when stopped, too) go
# to DIR/qemu.log, shown only when the guest's report is incomplete.
"${qemu[@]}" -serial "file:$out/console.log" "${chan_serial[@]}" \
	2>"$out/qemu.log" &
qpid=$!
[ "$mode" = demo ] && tail -n +1 -f "$out/console.log" --pid=$qpid &
while kill -0 "$qpid" 2>/dev/null; do
	if grep -q '^opp-verdict-end' "$out/channel.log"; then
		# The verdict judges the console up to the guest's end marker.
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			grep -q 'opp-guest: done' "$out/console.log" && break
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
kill "$qpid" 2>/dev/null || true
wait 2>/dev/null || true
log "guest ran for $(($(date +%s) - start)) s"
if ! grep -q '^opp-verdict-end' "$out/channel.log" && [ -s "$out/qemu.log" ]; then
	log "QEMU said ($out/qemu.log):"
	cat "$out/qemu.log" >&2
fi
