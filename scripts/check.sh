#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: install what is missing, build the debug kernel (cached) and
# the modules, run the lint gates (scripts/lint.sh) and the README's
# board commands (scripts/commands.sh), boot the guest to run
# the KUnit suites of selftest/manifest, judge the run, then prove the
# judge can fail: canary boots that must be judged failed, each for the
# reasons it was given. With ARCH=arm64 (TIER=arm64) the guest is the virt
# board on the KCSAN kernel: the same suites and torture, a leaner run
# (see below), and the KCSAN canaries as its self-check.
#
#   check.sh [--seed N] [--self-check]
#
# --self-check: the canary boots alone (no lint, no main run).
# SELF_CHECK=0 in the environment: no canary boot (see below).
# Ends with "N passed, N failed" over all of it; exits non-zero on failure.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

# --seed N (make check SEED=N) replays the pseudo-random choices of a run;
# --self-check runs the harness self-check alone.
seed=
self_check_only=0
while [ $# -gt 0 ]; do
	case "$1" in
	--seed) seed=${2:?--seed wants a number}; shift 2 ;;
	--self-check) self_check_only=1; shift ;;
	*) die "unknown argument $1" ;;
	esac
done
[ -n "$seed" ] || seed=$(($(od -An -N4 -tu4 /dev/urandom) % 1000000 + 1))
again="make check"
[ "$TIER" = arm64 ] && again+=" ARCH=arm64"
echo "seed $seed: replay with $again SEED=$seed"

t0=$(date +%s)
"$TOP/scripts/deps.sh"
"$TOP/scripts/build-kernel.sh" >/dev/null
log "building the modules"
make -s -C "$TOP" modules >/dev/null

runs=$OPP_RUNS
# make check TORTURE_SECONDS=300 runs the concurrency torture longer.
torture_seconds=${TORTURE_SECONDS:-20}
passed=0
failed=0

# The static checks come first: they need no guest.
if [ "$self_check_only" = 0 ]; then
	log "lint: checkpatch, sparse, W=1, kernel-doc, shellcheck, rst"
	out=$("$TOP/scripts/lint.sh") || true
	without_closing <<<"$out"
	tally "$out"
	log "commands: make install and dkms, as on a board"
	out=$("$TOP/scripts/commands.sh") || true
	without_closing <<<"$out"
	tally "$out"
fi

# expect NAME COND: one harness self-check.
expect() { counted self-check "$1" "$2"; }

# The main run's modules: the manifest's "test" modules of this tier, in
# its order; one the build did not make fails the run (manifest_run).
manifest_run
tests=$RUN_TESTS
failed=$((failed + UNBUILT))
# The arm64 KCSAN guest runs every suite, the torture and a few
# load/unload cycles; the cpufreq scenario and the kernel's cpufreq
# selftests against the sample, which KCSAN slows most and which race
# nothing that the 32-bit check does not already run, are left to the
# 32-bit check.
# LIFECYCLE=N: load/unload cycles under a consumer. One cycle already
# shows a leak (kmemleak), a reference kept (the next rmmod) or an entry
# left behind (the next load); more only widen the window for a teardown
# race, and each costs 9 to 12 s on the debug guests.
if [ "$TIER" = arm64 ]; then
	main_args=(--lifecycle "${LIFECYCLE:-5}" --timeout 1500)
	main_what="KUnit suites and the torture on the arm64 KCSAN kernel"
else
	# SCENARIOS="...": the user-space scenarios (initramfs/init).
	scenarios=${SCENARIOS-cpufreq cpufreq_selftests}
	main_args=(--scenarios "$scenarios" --lifecycle "${LIFECYCLE:-10}"
		   --timeout 1700)
	main_what="KUnit suites and the scenarios ($scenarios) on the debug kernel"
fi
if [ "$self_check_only" = 0 ]; then
	log "main run: $main_what"
	rm -rf "$runs/check"
	"$TOP/scripts/run-qemu.sh" --mode check --out "$runs/check" \
		--tests "$tests" --torture-seconds "$torture_seconds" \
		"${main_args[@]}" --seed "$seed"
	# The skips a tier excuses are the manifest's (skip lines).
	out=$("$TOP/scripts/verdict.py" "$runs/check") || true
	without_closing <<<"$out"
	tally "$out"
fi
t1=$(date +%s)

# The harness self-check: canary boots (selftest/opp_canary.c, one module
# parameter per failure mode) whose verdict must fail, for each reason the
# boot was given. Lockdep reports once per boot, and a KASAN, UBSAN or
# WARN report panics the guest (panic_on_warn): hence one boot for all
# that neither panics nor needs lockdep twice, and one per panic.
#
# canary RUN "PARAMS" "KERNEL PARAMS" [TIMEOUT]: boot the canary module
# with PARAMS; its verdict goes to $verdict.
canary() {
	log "harness self-check: opp_canary $2${3:+ (kernel: $3)}"
	rm -rf "${runs:?}/$1"
	"$TOP/scripts/run-qemu.sh" --mode check --out "$runs/$1" \
		--tests "opp_canary" --test-args "$2" --append "$3" \
		--timeout "${4:-600}" || true
	judge "$runs/$1"
}

# judge [VERDICT ARGS...] DIR: a verdict that must fail.
judge() {
	if verdict=$("$TOP/scripts/verdict.py" "$@"); then
		verdict="(the verdict passed)"
	fi
}

# fails_for WHAT PATTERN...: the last verdict failed and shows each PATTERN.
fails_for() {
	local what=$1 p

	shift
	for p in "$@"; do
		if ! grep -qE -- "$p" <<<"$verdict"; then
			expect "$what" no
			echo "      (no \"$p\" in its verdict)"
			return
		fi
	done
	expect "$what" yes
}

# A module that the manifest runs and the build did not make fails the run,
# as the main run above would have failed (no boot needed): a copy of the
# manifest naming one no Kbuild makes.
mkdir -p "$runs"
sed 's/^canary\topp_canary\t.*$/test\topp_harness_unbuilt\topp_harness_unbuilt\n&/' \
	"$TOP/selftest/manifest" >"$runs/manifest.unbuilt"
verdict=$(manifest_run "$runs/manifest.unbuilt"
	echo "unbuilt $UNBUILT, run: $RUN_TESTS")
fails_for "a manifest module the build did not make fails the run" \
	'^FAIL  opp_harness_unbuilt: the manifest runs it on [a-z0-9]+, and the build did not make it' \
	'^unbuilt [1-9]'
if grep -qE '^unbuilt .*, run: (.* )?opp_harness_unbuilt( |$)' <<<"$verdict"; then
	expect "a manifest module the build did not make is not loaded" no
else
	expect "a manifest module the build did not make is not loaded" yes
fi

# The commands gate (scripts/commands.sh), given a copy of the tree in
# which each command is broken as a change could break it: the library's
# install also installing the samples (Kbuild's library-only list), and
# dkms told of a module the build does not make (dkms.conf).
broken=$runs/commands-broken
rm -rf "$broken"
tree_copy "$broken"
# shellcheck disable=SC2016 # make's $(...), not the shell's
printf '\n# commands canary\nifeq ($(OPP_LIBRARY_ONLY),y)\nobj-m += samples/\nendif\n' \
	>>"$broken/Kbuild"
sed -i 's/^BUILT_MODULE_NAME\[0\]="opp"$/BUILT_MODULE_NAME[0]="opp_gone"/' "$broken/dkms.conf"
verdict=$("$TOP/scripts/commands.sh" --tree "$broken" 2>&1) || true
fails_for "make install putting more than opp.ko in the root fails the commands gate" \
	'^FAIL  commands: install: [0-9]+ lines of findings$' "installed under lib/modules/[^:]*: '.*opp_demo\.ko.*', not opp\.ko alone"
fails_for "a dkms.conf naming a module the build does not make fails the commands gate" \
	'^FAIL  commands: dkms: [0-9]+ lines of findings$' 'opp_gone'
rm -rf "$broken"

# The closing lines, once the last check has run.
finish() {
	log "the self-check took $(($(date +%s) - t1)) s"
	log "make check took $(($(date +%s) - t0)) s"
	echo "seed $seed: replay with $again SEED=$seed"
	closing_line
	[ "$failed" -eq 0 ]
	exit
}

# SELF_CHECK=0 (make check SELF_CHECK=0): no canary boot. .ci/run sets it
# for the second kernel of a guest: the canaries judge the harness, which
# the first kernel's check of the same run has proven.
if [ "${SELF_CHECK:-1}" = 0 ]; then
	echo "note  self-check: the canary boots were not run (SELF_CHECK=0)"
	finish
fi

# The arm64 KCSAN kernel: its own canaries. A KCSAN report panics the
# guest (panic_on_warn), so one boot each. Each is over in under two
# minutes, its report included, even on a host losing half its CPU to
# steal: 300 s, not the default 600, bounds what a stuck boot costs.
if [ "$TIER" = arm64 ]; then
	canary canary-kcsan-race "race=20" "" 300
	fails_for "KCSAN: a plain store racing a plain load fails the verdict" \
		'^FAIL  splat kcsan' \
		'BUG: KCSAN: data-race in opp_canary_plain_(load|store) \[opp_canary\] / opp_canary_plain_(load|store) \[opp_canary\]'
	canary canary-kcsan-publish "publish=60" "" 300
	fails_for "KCSAN: a pointer published without rcu_assign_pointer() fails the verdict" \
		'^FAIL  splat kcsan' \
		'BUG: KCSAN: data-race in opp_canary_(follow_once|publish_one) \[opp_canary\] / opp_canary_(follow_once|publish_one) \[opp_canary\]' \
		'write \(reordered\)'
	finish
fi

# Everything that neither panics nor turns lockdep off before the AB-BA.
# The stall and the hang happen on unload, after the guest has shortened
# the detectors' timeouts (10 s hung task; 5 s RCU stall, plus the 5 s that
# PROVE_RCU adds). The hang is the unloading task; the stall, a reader that
# does not leave, runs in a thread of its own meanwhile.
canary canary-a "fail=1 skip=1 lockdep=1 sleep_in_atomic=1 leak=1 stall=12 hang=13" ""
fails_for "a failed KUnit case fails the verdict" \
	'^FAIL  opp_harness_canary\.opp_harness_canary_ceil \(failed\)'
fails_for "a skipped KUnit case fails the verdict" \
	'^FAIL  opp_harness_canary\.opp_harness_canary_skip \(skipped\)'
fails_for "a lockdep report (AB-BA mutex order) fails the verdict" \
	'^FAIL  splat lockdep-circular'
fails_for "might_sleep() in an updater under rcu_read_lock() fails the verdict" \
	'^FAIL  splat sleep-in-atomic'
# The canary's objects: their size (OPP_CANARY_LEAK_SIZE) and contents.
fails_for "a kmemleak leak fails the verdict" \
	'^FAIL  kmemleak found no leak' \
	'unreferenced object 0x[0-9a-f]+ \(size 8193\)' '(5a ){16}'
fails_for "a reader stuck in rcu_read_lock() (an RCU stall) fails the verdict" \
	'^FAIL  splat rcu-stall'
fails_for "a task hung in uninterruptible sleep fails the verdict" \
	'^FAIL  splat hung-task'

# The same run, judged as if it had been meant to run more.
judge --tests "opp_canary opp_core_test" "$runs/canary-a"
fails_for "a module the run did not load fails the verdict" \
	'^FAIL  suite opp_search \(opp_core_test\): did not run'
sed 's/^canary\topp_canary\t.*$/&\ncanary\topp_canary\topp_harness_gone/' \
	"$TOP/selftest/manifest" >"$runs/canary-a/manifest.more"
judge --manifest "$runs/canary-a/manifest.more" "$runs/canary-a"
fails_for "a suite missing from its module fails the verdict" \
	'^FAIL  suite opp_harness_gone \(opp_canary\): did not run'
# A check of the manifest (a scenario's step, say) that the guest never
# reported, as when a scenario stops before it or the step is dropped.
sed '$a check\talways\topp_harness_unreported' \
	"$TOP/selftest/manifest" >"$runs/canary-a/manifest.unreported"
judge --manifest "$runs/canary-a/manifest.unreported" "$runs/canary-a"
fails_for "a check of the manifest that the guest did not report fails the verdict" \
	'^FAIL  check opp_harness_unreported: not reported'
# A helper module of the manifest (its "helper" lines) that the guest
# did not load and unload, as when /init stops loading the helpers.
sed 's/^helper\t.*$/&\nhelper\topp_harness_helper/' \
	"$TOP/selftest/manifest" >"$runs/canary-a/manifest.helper"
judge --manifest "$runs/canary-a/manifest.helper" "$runs/canary-a"
fails_for "a helper module of the manifest that did not load fails the verdict" \
	'^FAIL  insmod opp_harness_helper: not reported' \
	'^FAIL  rmmod opp_harness_helper: not reported'
# The same run re-judged from copies of its logs, each edited to show
# one more way a run goes wrong that no canary boot shows on purpose.
# doctor NAME FILE FILTER...: canary-a's run copied to canary-a-NAME, its
# FILE (console.log or channel.log, whose lines end in CR LF as the
# guest's serial port sends them) put through FILTER, then judged.
doctor() {
	local dir=$runs/canary-a-$1 file=$2

	shift 2
	rm -rf "$dir"
	cp -r "$runs/canary-a" "$dir"
	"$@" <"$runs/canary-a/$file" >"$dir/$file"
	! cmp -s "$dir/$file" "$runs/canary-a/$file" ||
		die "doctor: '$*' changed nothing in $file"
	judge "$dir"
}
# A suite's case count is its KTAP plan's: a plan announcing more cases
# than ran (a case lost), fewer (a case too many), none at all.
plan_line='^(\[ *[0-9.]+\] )?    1\.\.[0-9]+'
suite_line='/# Subtest: opp_harness_canary\r?$/'
doctor plan console.log sed -E "$suite_line{n;s/$plan_line/\1    1..9/}"
fails_for "a suite that reports fewer cases than its KTAP plan fails the verdict" \
	'^FAIL  suite opp_harness_canary \(opp_canary\): KTAP parser: [0-9]+ errors, first: .*missing expected subtest'
doctor plan-short console.log sed -E "$suite_line{n;s/$plan_line/\1    1..2/}"
fails_for "a suite that reports more cases than its KTAP plan fails the verdict" \
	'^FAIL  suite opp_harness_canary \(opp_canary\): KTAP parser: [0-9]+ errors, first: .*missing subtest result line'
doctor noplan console.log sed -E "$suite_line{n;/$plan_line/d}"
fails_for "a suite without a KTAP plan fails the verdict" \
	'^FAIL  suite opp_harness_canary \(opp_canary\): no KTAP plan'
# A suite the manifest does not know, run beside the expected ones: the
# canary's suite again, renamed (the $0 are awk's).
# shellcheck disable=SC2016
doctor extra console.log awk '
	{ print }
	held { block = block "\n" $0 }
	!held && prev ~ /    KTAP version 1\r?$/ &&
	    /# Subtest: opp_harness_canary\r?$/ { held = 1; block = prev "\n" $0 }
	held && /^(\[[ 0-9.]+\] )?(not )?ok [0-9]+ opp_harness_canary\r?$/ {
		gsub(/opp_harness_canary/, "opp_harness_extra", block)
		print block
		held = 0
	}
	{ prev = $0 }'
fails_for "a suite the manifest does not know fails the verdict" \
	'^FAIL  suite opp_harness_extra: ran, and the manifest does not know it'
# A module that failed to load or to unload.
doctor insmod channel.log sed -E 's/^insmod opp_canary ok/insmod opp_canary failed/'
fails_for "a failed insmod fails the verdict" '^FAIL  insmod opp_canary'
doctor rmmod channel.log sed -E 's/^rmmod opp_canary ok/rmmod opp_canary failed/'
fails_for "a failed rmmod fails the verdict" '^FAIL  rmmod opp_canary'
# Reports of the kernel's detectors that no canary module triggers, each
# as the kernel prints it, in the middle of the canary's suite.
# splat NAME LINE: canary-a's console with LINE after the suite's start.
splat() {
	doctor "$1" console.log sed -E "${suite_line}a\\[   27.000000] $2"
}
splat soft-lockup 'watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [opp_canary:61]'
fails_for "a soft lockup fails the verdict" '^FAIL  splat soft-lockup'
splat list-corruption 'list_add corruption. prev->next should be next (c0ffee00), but was 00000000. (prev=c0ffee00).'
fails_for "a list corruption fails the verdict" '^FAIL  splat list-corruption'
splat debugobjects 'ODEBUG: free active (active state 0) object type: timer_list hint: opp_canary_timer+0x0/0x10 [opp_canary]'
fails_for "a debugobjects report fails the verdict" '^FAIL  splat debugobjects'

canary canary-warn "nonstatic_key=1 warn=1" "kmemleak=off"
fails_for "a lock used uninitialised (non-static key) fails the verdict" \
	'^FAIL  splat nonstatic-key'
fails_for "a kmemleak disabled at boot fails the verdict" \
	'^FAIL  check kmemleak-on'
fails_for "a kernel WARNING fails the verdict" '^FAIL  splat warning'
fails_for "a panic fails the verdict" '^FAIL  guest finished'

canary canary-kasan "uaf=1" ""
fails_for "a KASAN use-after-free fails the verdict" '^FAIL  splat kasan'
fails_for "a suite cut short by a crash fails the verdict" \
	'^FAIL  suite opp_harness_canary \(opp_canary\): KTAP parser: [0-9]+ errors'

canary canary-ubsan "divzero=1 ubsan=1" ""
fails_for "a division by zero in the kernel fails the verdict" \
	'^FAIL  splat divzero'
fails_for "a UBSAN out-of-bounds index fails the verdict" '^FAIL  splat ubsan'

# 12 s: the kernel runs by then, so the PCs the harness leaves are its.
canary canary-timeout "" "" 12
fails_for "a guest that outlives --timeout fails the verdict" \
	'^FAIL  guest finished: opp-harness: timeout after 12 s; where it was stuck in .*/canary-timeout/stacks\.log'
# Where it was (run-qemu.sh's qemu_timeout): CPU 0's PC named from the
# kernel's System.map, as a guest stuck before its console came up would
# show it.
if grep -qE '^where CPU#0: PC [0-9a-f]+ [A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+/0x' \
	"$runs/canary-timeout/stacks.log" 2>/dev/null; then
	expect "a guest that outlives --timeout leaves its vCPUs' PCs, named, in stacks.log" yes
else
	expect "a guest that outlives --timeout leaves its vCPUs' PCs, named, in stacks.log" no
fi
finish
