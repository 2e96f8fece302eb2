#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make quick: the fast loop. Builds (once, cached) the User-Mode Linux
# debug kernel and the modules for it, boots UML once with every KUnit
# suite of selftest/ (the canary aside; the torture last, for
# QUICK_TORTURE_SECONDS, 10 by default), a few load/unload cycles and the
# kmemleak scan, and judges the run with verdict.py. QUICK_TESTS="MOD..."
# loads those test modules instead. Native speed, one CPU
# without preemption: the interleavings of the ARM guest's 4 CPUs are not
# there, nor PREEMPT and DEBUG_ATOMIC_SLEEP. make check stays the gate.
# Then one self-check of its own: a guest hung on purpose must leave every
# task's stack behind (run-qemu.sh's stacks.log), with the hung task in it;
# QUICK_SELF_CHECK=0 leaves it out.
set -euo pipefail
export TIER=uml FLAVOUR=debug
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

t0=$(date +%s)
"$TOP/scripts/deps.sh"
"$TOP/scripts/build-kernel.sh" >/dev/null
log "building the modules for UML"
make -s -C "$TOP" modules >/dev/null

# The manifest's test modules of the UML tier, in its order; each must
# have been built by this build (manifest_run: not a stale .ko).
manifest_run "$TOP/selftest/manifest"
[ "$UNBUILT" = 0 ] ||
	die "$UNBUILT of the manifest's modules for UML were not built (selftest/Kbuild)"
read -ra suites <<<"${QUICK_TESTS:-$RUN_TESTS}"

out=$OPP_RUNS/quick
rm -rf "$out"
"$TOP/scripts/run-qemu.sh" --mode check --out "$out" --tests "${suites[*]}" \
	--torture-seconds "${QUICK_TORTURE_SECONDS:-10}" --lifecycle 5 \
	--timeout 120
status=0
# The cases one CPU without preemption cannot run skip, excused by the
# manifest (skip lines); the ARM guest (make check) runs them.
"$TOP/scripts/verdict.py" "$out" || status=$?

# The hang canary: opp_canary's unload sleeps uninterruptibly for 600 s
# (hang=600), the harness stops the guest at its timeout. The dump must
# name the sleeping task's frames (sysrq w through the management
# console) and the verdict must point at it.
if [ "${QUICK_SELF_CHECK:-1}" != 0 ]; then
	log "self-check: a hung guest leaves its stacks"
	hung=$OPP_RUNS/quick-hang
	rm -rf "$hung"
	"$TOP/scripts/run-qemu.sh" --mode check --out "$hung" --tests opp_canary \
		--test-args "hang=600" --timeout "${QUICK_HANG_TIMEOUT:-40}" || true
	verdict=$("$TOP/scripts/verdict.py" "$hung" 2>&1) || true
	why=
	sed -n '/^# the guest: sysrq w/,/^# the guest: sysrq d/p' "$hung/stacks.log" 2>/dev/null |
		grep -q 'opp_canary_exit' ||
		why="its stacks.log has no sysrq w naming opp_canary_exit"
	grep -q "^FAIL  guest finished: opp-harness: timeout after .*; where it was stuck in $hung/stacks.log" \
		<<<"$verdict" || why="${why:+$why; }its verdict does not point at stacks.log"
	if [ -n "$why" ]; then
		echo "FAIL  self-check: a hung guest leaves its stacks: $why ($hung)"
		status=1
	else
		echo "ok    self-check: a hung guest leaves its stacks ($hung/stacks.log)"
	fi
fi
log "make quick took $(($(date +%s) - t0)) s"
exit $status
