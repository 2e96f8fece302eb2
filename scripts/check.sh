#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: install what is missing, build the debug kernel (cached) and
# the modules, run the lint gates (scripts/lint.sh), boot the guest to run
# the KUnit suites, judge the run, then prove the judge can fail: two
# canary boots that must be judged failed.
# Ends with "N passed, N failed" over all of it; exits non-zero on failure.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

# --seed N (make check SEED=N) replays the pseudo-random choices of a run.
seed=
[ "${1:-}" = --seed ] && seed=${2:?--seed wants a number}
[ -n "$seed" ] || seed=$(($(od -An -N4 -tu4 /dev/urandom) % 1000000 + 1))
echo "seed $seed: replay with make check SEED=$seed"

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

# tally LABEL VERDICT-OUTPUT: add a verdict's closing line to the totals.
tally() {
	local line p f
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' <<<"$2" | tail -n 1)
	p=${line%% passed*}
	f=${line#*passed, }
	f=${f%% failed*}
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-1}))
}

# The static checks come first: they need no guest.
log "lint: checkpatch, sparse, W=1, kernel-doc, shellcheck, rst"
out=$("$TOP/scripts/lint.sh") || true
echo "$out" | grep -vE '^[0-9]+ passed, [0-9]+ failed$'
tally lint "$out"

# expect NAME COND: one harness self-check.
expect() {
	if [ "$2" = yes ]; then
		passed=$((passed + 1))
		echo "ok    self-check: $1"
	else
		failed=$((failed + 1))
		echo "FAIL  self-check: $1"
	fi
}

log "main run: KUnit suites and the cpufreq scenario on the debug kernel"
rm -rf "$runs/check"
"$TOP/scripts/run-qemu.sh" --mode check --out "$runs/check" \
	--tests "opp_test opp_extensions_test opp_robust opp_torture" \
	--scenarios "cpufreq" --torture-seconds "$torture_seconds" \
	--lifecycle 50 --timeout 1500 --seed "$seed"
out=$("$TOP/scripts/verdict.sh" "$runs/check") || true
echo "$out" | grep -vE '^[0-9]+ passed, [0-9]+ failed$'
tally main "$out"

# canary RUN TEST_ARGS MUST_SHOW WHAT: boot the canary, which fails on
# purpose; the verdict must fail, and for the expected reason.
canary() {
	local out ok=yes

	log "harness self-check: $4"
	rm -rf "${runs:?}/$1"
	"$TOP/scripts/run-qemu.sh" --mode check --out "$runs/$1" \
		--tests "opp_canary" --test-args "$2" --timeout 600
	if out=$("$TOP/scripts/verdict.sh" "$runs/$1"); then
		ok=no
	fi
	grep -q "$3" <<<"$out" || ok=no
	expect "$4" $ok
}

canary canary-fail "" 'FAIL  opp_harness_canary.opp_canary_wrong_ceil' \
	"a failed KUnit case fails the verdict"
canary canary-warn "warn=1" 'FAIL  no kernel splat' \
	"a kernel WARNING fails the verdict"
canary canary-atomic "sleep_in_atomic=1" 'FAIL  no kernel splat' \
	"might_sleep() in an updater under rcu_read_lock() fails the verdict"

log "make check took $(($(date +%s) - t0)) s"
echo "seed $seed: replay with make check SEED=$seed"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
