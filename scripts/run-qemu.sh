#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the guest of $TIER with the modules built for it: QEMU's vexpress-a9
# board (arm), QEMU's virt board with a Cortex-A57 (arm64), or User-Mode
# Linux, a process of this x86_64 host (uml). One runner for the three:
# what differs is one function per tier (*_setup, *_boot, *_wait,
# *_finish); the options, the intent, the kernel command line and the
# wait for the guest's report are shared.
#
#   run-qemu.sh [--mode check|demo|bench|shell] [--out DIR] [--timeout SEC]
#               [--tests "MOD..."] [--test-args "PARAM=VALUE..."]
#               [--scenarios "NAME..."] [--torture-seconds SEC]
#               [--lifecycle CYCLES] [--seed N] [--append "PARAM=VALUE..."]
#               [--stall-dump SEC]
#
# --tests: the KUnit modules the guest loads in check mode, in order
# (default: the manifest's for this tier);
# --test-args: module parameters for each of them (and for opp_bench).
# --append: more kernel parameters (the harness self-check boots with
# kmemleak=off, for one).
# --scenarios: user-space scenarios the guest runs in check mode after the
# KUnit modules (initramfs/init: scenario_NAME), e.g. "cpufreq"; not on
# UML, which has no cpufreq.
# --torture-seconds: how long opp_torture_test runs (the timeout grows by it).
# --lifecycle: load/unload cycles of the library under a consumer, after
# the scenarios (the timeout grows by 10 s a cycle).
# --seed: the seed of every pseudo-random choice in the guest (opp_torture_test,
# the scenarios' fuzz); without it one is picked and printed, so that any
# run can be replayed with --seed.
# --timeout: seconds before the host gives up on the guest (default
# $OPP_QEMU_TIMEOUT, else 300, plus 600 a scenario: the cpufreq one alone
# runs for 230 s on an idle host); the report then ends with a timeout line.
# --stall-dump: a guest that has printed nothing on its console or
# channel for SEC seconds is taken for stuck.
#
# The console goes to DIR/console.log (and to the terminal: for shell
# whole, for demo the story alone: story_lines), the guest's report to
# DIR/channel.log through a line of its own
# (vexpress: the second serial line, ttyAMA1; virt, which has one PL011:
# a virtio console, hvc0; UML: the serial line ttyS0 on fd 3), QEMU's own
# messages to DIR/qemu.log, what the run is meant to do to DIR/intent
# (write_intent, for the verdict). In check, demo and bench modes the
# guest is stopped as soon as the report is complete, before the board's
# power-off path can print its own noise.
#
# The QEMU guests boot on a copy of the board's device tree whose CPU
# nodes point at two clusters' operating-points-v2 tables (cluster_dtb),
# the OPPs that the cpufreq sample reads through the library and that the
# cpufreq scenario reads back from /sys/firmware/devicetree, and which
# carries the opp_of_v2 and opp_set_rate suites' tables (test_dtb), the
# OPP tables of every board of the kernel tree when opp_of_corpus_test
# runs (corpus_dtb) and, on vexpress, the node that points the
# opp_board_clock suite at a board oscillator (board_clock_dtb).
# OPP_DTB=FILE boots on FILE instead. The vexpress tree comes from the
# kernel build; QEMU makes the virt board's itself, and dumps it (-machine
# dumpdtb) for the same machine options as the boot. UML has no board: its
# tree holds the suites' tables alone.
#
# A guest still running at --timeout, or stalled (--stall-dump), leaves
# where it is stuck in DIR/stacks.log before it is killed. QEMU: each
# vCPU's registers, asked of QEMU's monitor (a unix socket,
# DIR/qemu/monitor.sock or a shorter temporary path), their PC and LR
# named from the kernel's System.map (scripts/qemu-monitor.py), three
# samples 1 s apart; the named PCs and the console's last lines are
# logged too, since a guest stuck before its console came up says
# nothing else (the console has the boot from its first line:
# earlycon). UML: the stacks as the guest sees them
# (sysrq w and d, asked through UML's management console, CONFIG_MCONSOLE:
# scripts/uml-mconsole.py; the socket is UML_DIR/opp/mconsole, UML_DIR
# being DIR/uml or a shorter temporary directory). Both: the guest's
# process as the host sees it (ps -L samples of its threads; gdb's
# backtrace when gdb is installed), since a guest that no longer takes
# its interrupts cannot answer.
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
stall_dump=
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
	--stall-dump) stall_dump=$2; shift 2 ;;
	*) die "unknown argument $1" ;;
	esac
done
# Without --tests (an empty one loads none), every suite the manifest
# runs on this tier.
[ "$tests_given" = 1 ] || tests=$(manifest_tests | tr '\n' ' ')
tests=${tests% }
case "$TIER:$mode" in
*:check|*:bench|*:shell|arm:demo|arm64:demo) ;;
*) die "no $mode mode on the $TIER guest" ;;
esac
[ "$TIER" != uml ] || [ -z "$scenarios" ] ||
	die "the UML guest runs no scenario (it has no cpufreq): $scenarios"
if [ -z "$seed" ]; then
	seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
	seed=$((seed % 1000000 + 1))
fi
[[ $seed =~ ^[1-9][0-9]{0,8}$ ]] ||
	die "--seed wants a number from 1 to 999999999, not '$seed'"
if [ -z "$timeout" ]; then
	timeout=${OPP_QEMU_TIMEOUT:-300}
	for _ in $scenarios; do
		timeout=$((timeout + 600))
	done
fi

kernel=$(kernel_image)
[ -f "$kernel" ] || die "no kernel in $(kernel_build) (run TIER=$TIER scripts/build-kernel.sh)"
[ -n "$out" ] || out=$(mktemp -d)
mkdir -p "$out"
out=$(cd "$out" && pwd)
: >"$out/console.log"
: >"$out/channel.log"
write_intent "$out" "mode=$mode" "tests=$tests" "test_args=$test_args" \
	"scenarios=$scenarios" "torture_seconds=$torture_seconds" \
	"lifecycle=$lifecycle" "seed=$seed" "append=$extra_append"

# What /init reads of the run, and what every guest's kernel is told: each
# a kernel parameter, a value with spaces in quotes for the kernel's parser.
params=(panic_on_warn=1 "OPP_MODE=$mode" "OPP_TESTS=\"$tests\""
	"OPP_TEST_ARGS=\"$test_args\"" "OPP_SCENARIOS=\"$scenarios\""
	"OPP_SEED=$seed")
if [ -n "$torture_seconds" ]; then
	# The guest hands it to opp_torture_test only; the run lasts that much longer.
	params+=("OPP_TORTURE_SECONDS=$torture_seconds")
	timeout=$((timeout + torture_seconds))
fi
if [ -n "$lifecycle" ]; then
	# Load/unload cycles of the library and a consumer, after the suites.
	params+=("OPP_LIFECYCLE=$lifecycle")
	timeout=$((timeout + 10 * lifecycle))
fi

# host_threads WHAT PS-SELECTOR...: the guest's process as the host sees
# it: its threads (3 samples 1 s apart: a thread whose CPU time grows
# spins, one that sleeps shows where in wchan) and, when gdb is
# installed, their backtraces.
host_threads() {
	local what=$1 i
	shift
	echo
	echo "# the host: the threads of $what, 3 samples 1 s apart"
	for i in 1 2 3; do
		[ "$i" = 1 ] || sleep 1
		date +%T
		ps -L "$@" -o pid,lwp,ppid,stat,pcpu,cputime,wchan:24,comm || true
	done
	echo
	if command -v gdb >/dev/null; then
		echo "# the host: gdb, thread apply all bt, process $gpid"
		timeout 120 gdb -p "$gpid" -batch -nx -ex 'thread apply all bt' </dev/null 2>&1 ||
			echo "# (gdb failed or took more than 120 s)"
	else
		echo "# the host: no gdb installed, no backtrace of process $gpid"
	fi
}

# socket_dir DIR TAIL: DIR, emptied, if DIR/TAIL fits in a unix socket's
# path (107 bytes), else a new temporary directory; the runner's finish
# removes a temporary one.
socket_dir() {
	if [ $((${#1} + 1 + ${#2})) -le 107 ]; then
		rm -rf "$1"
		mkdir -p "$1"
		echo "$1"
	else
		mktemp -d /tmp/opp-guest.XXXXXX
	fi
}

# ---- QEMU: arm and arm64 ----

qemu_setup_arm() {
	local build
	build=$(kernel_build)
	# Since 6.5 the ARM dts live in one directory per vendor.
	dtb=$build/arch/arm/boot/dts/arm/vexpress-v2p-ca9.dtb
	[ -f "$dtb" ] || dtb=$build/arch/arm/boot/dts/vexpress-v2p-ca9.dtb
	board=(qemu-system-arm -M vexpress-a9 -smp 4 -m 512)
	# The board's sound chip (PL041) plays into a backend that discards
	# it: without one named, QEMU probes the host's sound systems and
	# prints a line for each one it lacks.
	devices=(-audiodev "none,id=nosound" -global pl041.audiodev=nosound)
	# The report channel: the board's second serial line, after the
	# console's.
	chan_serial=(-serial "file:$out/channel.log")
	# The console from the kernel's first lines (earlycon), not from the
	# PL011 driver's probe some seconds in: a guest stuck before then
	# would leave it empty. The board's tree names no stdout-path.
	params+=("earlycon=pl011,0x10009000")
}

qemu_setup_arm64() {
	# No network: the board would bring a PCI NIC and look for its ROM.
	board=(qemu-system-aarch64 -M virt -cpu cortex-a57 -smp 4 -m 512 -nic none)
	dtb=$out/virt.dtb
	"${board[@]}" -machine "dumpdtb=$dtb" -display none >"$out/qemu.log" 2>&1 ||
		die "QEMU could not dump the virt board's device tree"
	# The report channel: a virtio console on the board's virtio-mmio bus.
	devices=(-device virtio-serial-device
		 -chardev "file,id=chan,path=$out/channel.log"
		 -device "virtconsole,chardev=chan")
	chan_serial=()
	params+=(OPP_CHAN=/dev/hvc0)
	# The console from the kernel's first lines (see qemu_setup_arm).
	params+=("earlycon=pl011,0x9000000")
	# KCSAN_STRICT forces the watcher of races between a task and an
	# interrupt on the same CPU on (Kconfig offers no way off), and the
	# 6.1 kernel's own tick code then panics a boot within minutes:
	# "data-race in tick_irq_enter / tick_nohz_idle_got_tick", the idle
	# task's store to a bitfield of its CPU's tick_sched read by the timer
	# interrupt that interrupted it. Races between CPUs, the torture's
	# interrupt-context lookups against updaters on other CPUs included,
	# are still watched.
	params+=(kcsan.interrupt_watcher=0)
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
	params+=("OPP_KCSAN_FILTER=\"hrtimer_active osq_unlock vring_interrupt\"")
	# KCSAN starts off, and /init turns it on once the filter is in
	# place: hrtimer_active's race fired while the kernel was still
	# booting, before /init ran, and panicked a canary boot at 32 s
	# (a CI run of 2026-12-07, on a loaded host).
	params+=(kcsan.early_enable=0)
}

# The board's device tree with the OPP tables the run needs (see the top).
qemu_dtb() {
	if [ -n "${OPP_DTB:-}" ]; then
		dtb=$OPP_DTB
		return
	fi
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
}

qemu_setup() {
	"qemu_setup_$TIER"
	qemu_dtb
	local append
	append="console=ttyAMA0 panic=-1 ${params[*]}"
	[ -n "$extra_append" ] && append+=" $extra_append"
	# The human monitor, on a socket: qemu_timeout asks it where the
	# vCPUs are.
	mdir=$(socket_dir "$out/qemu" monitor.sock)
	monitor=$mdir/monitor.sock
	qemu=("${board[@]}" -no-reboot
	      -kernel "$kernel" -dtb "$dtb" -initrd "$out/initramfs.cpio.gz"
	      -append "$append" -display none
	      -monitor "unix:$monitor,server=on,wait=off" "${devices[@]}")
}

qemu_shell() {
	exec "${qemu[@]}" -serial mon:stdio "${chan_serial[@]}"
}

# QEMU's own messages (its "terminating on signal" when stopped, too) go
# to DIR/qemu.log, shown only when the guest's report is incomplete.
qemu_boot() {
	"${qemu[@]}" -serial "file:$out/console.log" "${chan_serial[@]}" \
		2>"$out/qemu.log" &
	gpid=$!
	# demo: the story as it happens (story_lines); the whole console
	# stays in console.log.
	if [ "$mode" = demo ]; then
		tail -n +1 -f "$out/console.log" --pid=$gpid | story_lines &
	fi
}

# story_lines: the demo's console as the terminal shows it: from /init's
# start to its end mark, what user space wrote, and what the library,
# the demo and the cpufreq sample printed themselves (their pr_fmt
# prefix) and /init's marks; not the kernel's other lines (the module
# loader's taint notice, a driver's deferred probe, the board's power-off
# path after the end), which console.log keeps.
story_lines() {
	local k='^\[ *[0-9]+\.[0-9]+\] '
	sed -u -n -E "s/\r\$//
	/^opp-guest: start/,/${k}opp-guest: done\$/{
		/${k}[a-z_]+: loading out-of-tree module taints kernel\.\$/d
		/${k}((opp|opp_demo|opp_cpufreq): |opp-guest: )/{p;d}
		/${k}/d
		p
	}"
}

# The report is complete: the verdict judges the console up to the
# guest's end marker, which follows it within moments.
qemu_wait_end() {
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		grep -q 'opp-guest: done' "$out/console.log" && break
		sleep 0.5
	done
}

# qemu_timeout WHY: where the guest is stuck, in $out/stacks.log, while
# it still runs: each vCPU's registers from QEMU's monitor, its PC and LR
# named from the kernel's System.map (scripts/qemu-monitor.py), three
# samples 1 s apart (a PC that stays in one place waits or spins there),
# then QEMU's threads as the host sees them. A guest stuck before its
# console came up leaves nothing else: the named PCs and the console's
# last lines go to the log as well, which is all a CI run shows.
qemu_timeout() {
	local map i sym=()
	map=$(kernel_build)/System.map
	[ -f "$map" ] && sym=(--symbols "$map")
	log "$1: the vCPUs' registers and QEMU's threads to $out/stacks.log"
	{
		echo "# $1"
		echo
		# The registers whole once, then the named PCs alone.
		for i in 1 2 3; do
			case $i in
			2) sym+=(--brief) ;&
			3) sleep 1; echo ;;
			esac
			echo "# the guest's vCPUs, sample $i of 3: QEMU's monitor, info registers -a"
			python3 "$TOP/scripts/qemu-monitor.py" "${sym[@]}" "$monitor" info registers -a ||
				echo "# (no answer: QEMU's main loop is stuck)"
		done
		host_threads "QEMU (process $gpid)" -p "$gpid"
	} >"$out/stacks.log" 2>&1
	grep -E '^(where |# \(no answer)' "$out/stacks.log" >&2 || true
	if [ -s "$out/console.log" ]; then
		log "the console's last lines:"
		tail -n 8 "$out/console.log" >&2
	else
		log "the console is empty: the kernel stopped before its console came up"
	fi
}

qemu_finish() {
	kill "$gpid" 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$mdir"
	log "guest ran for $(($(date +%s) - start)) s"
	if ! grep -q '^opp-verdict-end' "$out/channel.log" && [ -s "$out/qemu.log" ]; then
		log "QEMU said ($out/qemu.log):"
		cat "$out/qemu.log" >&2
	fi
}

# ---- User-Mode Linux ----

uml_setup() {
	test_dtb - "$out/tables.dtb"
	# The management console's socket, UML_DIR/opp/mconsole, must fit in
	# a socket's path (107 bytes; "/opp/mconsole" is 13).
	udir=$(socket_dir "$out/uml" opp/mconsole)
	mconsole=$udir/opp/mconsole
	# UML joins its arguments into the kernel command line.
	uml=("$kernel" mem=512M "initrd=$out/initramfs.cpio.gz"
	     "dtb=$out/tables.dtb" rdinit=/init "uml_dir=$udir" umid=opp
	     con=null ssl=null "ssl0=null,fd:3" OPP_CHAN=/dev/ttyS0
	     OPP_NO_RCU_STALL=1 "${params[@]}")
	[ -n "$extra_append" ] && uml+=("$extra_append")
	# A panicking UML dumps core: not here.
	ulimit -c 0
	# UML keeps its memory in a file under TMPDIR: the run's own directory.
	export TMPDIR=$out
}

uml_shell() {
	exec "${uml[@]}" "con0=fd:0,fd:1" 3>>"$out/channel.log"
}

# Its own session and process group: UML's helper processes go with it.
uml_boot() {
	setsid "${uml[@]}" "con0=null,fd:1" </dev/null \
		>"$out/console.log" 2>&1 3>"$out/channel.log" &
	gpid=$!
}

# /init powers off by itself within seconds of its report.
uml_wait_end() {
	for _ in $(seq 20); do
		kill -0 "$gpid" 2>/dev/null || break
		sleep 0.5
	done
}

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

# uml_timeout WHY: where the guest is stuck, in $out/stacks.log (see the
# top of this file), while it still runs. The guest's reports are taken
# from its console, which has them whole (scripts/uml-mconsole.py).
# w shows the blocked tasks, d the locks held (lockdep). Not t: asked from
# the management console's interrupt, 6.1's debug UML trips lockdep
# (DEBUG_LOCKS_WARN_ON(lockdep_hardirq_context())) on the first workqueue
# task it shows, which panics the guest (panic_on_warn). Not p: UML has
# no registers for that interrupt (all zero). Where a task spins, the
# CPU is the UML process's own: gdb's backtrace shows it.
uml_timeout() {
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
		host_threads "the UML processes (session $gpid)" -s "$gpid"
	} >"$out/stacks.log" 2>&1
}

# The run is judged from /init's "opp-guest: start" on (verdict.py reads
# console.log); the kernel's boot up to there, /init's first forks
# included, goes to boot.log. The reason: UML 6.1 walks a process's VMAs
# without the mmap lock when it forks (force_flush_all()), which PROVE_RCU
# reports as two "suspicious RCU usage" warnings at the first fork, in
# every boot, before any module of ours is loaded. A boot splat is still
# shown here, never counted.
uml_finish() {
	local n
	kill -KILL -- "-$gpid" 2>/dev/null || true
	wait 2>/dev/null || true
	log "guest ran for $(($(date +%s) - start)) s"
	# The socket's directory, unless it is the run's own.
	[ "$udir" = "$out/uml" ] || rm -rf "$udir"
	grep -q '^opp-guest: start' "$out/console.log" || return 0
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
}

# ---- The run ----

# The two QEMU boards share their functions past the setup.
case "$TIER" in
arm|arm64) runner=qemu ;;
uml) runner=uml ;;
esac

"$TOP/scripts/mkinitramfs.sh" "$out/initramfs.cpio.gz"
"${runner}_setup"
[ "$mode" = shell ] && "${runner}_shell"

log "booting the $TIER guest ($mode, seed $seed), results in $out"
start=$(date +%s)
"${runner}_boot"
# The guest's last output (for --stall-dump): its two logs' sizes, and
# when they changed.
said=
said_at=$start
while kill -0 "$gpid" 2>/dev/null; do
	if grep -q '^opp-verdict-end' "$out/channel.log"; then
		"${runner}_wait_end"
		break
	fi
	now=$(date +%s)
	if [ $((now - start)) -ge "$timeout" ]; then
		log "timeout after $timeout s"
		"${runner}_timeout" "timeout after $timeout s"
		echo "opp-harness: timeout after $timeout s" >>"$out/channel.log"
		break
	fi
	if [ -n "$stall_dump" ]; then
		sizes=$(stat -c %s "$out/console.log" "$out/channel.log" | paste -sd ' ')
		if [ "$sizes" != "$said" ]; then
			said=$sizes
			said_at=$now
		elif [ $((now - said_at)) -ge "$stall_dump" ]; then
			"${runner}_timeout" "stalled: nothing printed for $stall_dump s"
			echo "opp-harness: timeout: the guest printed nothing for $stall_dump s" \
				>>"$out/channel.log"
			break
		fi
	fi
	sleep 0.5
done
"${runner}_finish"
