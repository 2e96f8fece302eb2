#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Judge a guest run from its console and its report channel.
#
#   verdict.sh [--tests "MOD..."] [--manifest FILE] [--skip-ok "S.C..."] DIR
#
# --skip-ok: cases (SUITE.CASE) whose skip this run may excuse, because
# the kernel it booted cannot run them (make quick: User-Mode Linux has one
# CPU and no preemption). They are listed as skipped, neither passed nor
# failed; any other skip fails.
# What the run was meant to do is read from the kernel command line on the
# console (OPP_MODE, OPP_TESTS, OPP_SCENARIOS, OPP_LIFECYCLE, as
# run-qemu.sh booted it); --tests replaces OPP_TESTS. What that must show
# is in the manifest (selftest/manifest): the KUnit suites of each module
# with the number of results each reports, and the harness checks.
#
# KTAP: each suite's lines are cut from the console and parsed by the
# kernel's own parser (tools/testing/kunit/kunit.py parse --json). In 6.1
# a suite's debugfs results keep only the last parameter of a
# parameterised case, the console has them all.
#
# Passes only if the guest finished; every suite of every module of the run
# ran, parsed cleanly, reported as many results as the manifest says and
# all passed (a skipped case counts as failed); no suite ran that the
# manifest does not expect; every module and the library loaded and
# unloaded; every required harness check and every other check the guest
# reported passed; kmemleak scanned and found nothing; and the console
# shows no kernel splat. After the guest's "power-off" marker only the
# board's own power-off report is excused: "BUG: Invalid wait context",
# which the 6.1 vexpress power-off path prints on every debug boot (a mutex
# under an atomic notifier in the board's code, not in a module). Prints a summary and the closing line "N passed, N failed",
# counting each KTAP result and each harness check; exits 1 on failure.
#
# A run the harness stopped at its timeout fails "guest finished"; when the
# harness left every task's stack in DIR/stacks.log (run-uml.sh), the line
# says so.
#
# Besides KTAP, the guest may report any check of its own (a user-space
# scenario, say) as a line "check NAME ok" or "check NAME failed REASON".
# The "torture:" diagnostic lines of a suite (opp_torture's figures: ops
# and ops/s per reader, hard-interrupt lookups, updaters, violations) are
# printed in the summary.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

manifest=$TOP/selftest/manifest
tests=
tests_given=0
skip_ok=
while [ $# -gt 1 ]; do
	case "$1" in
	--tests) tests=$2; tests_given=1; shift 2 ;;
	--skip-ok) skip_ok=$2; shift 2 ;;
	--manifest) manifest=$2; shift 2 ;;
	*) die "unknown argument $1" ;;
	esac
done
dir=${1:?usage: verdict.sh [--tests "MOD..."] [--manifest FILE] [--skip-ok "S.C..."] DIR}
# The KTAP parser runs from the kernel tree: DIR must not be relative.
[ -d "$dir" ] || die "no run directory $dir"
dir=$(cd "$dir" && pwd)
chan=$dir/channel.log
cons=$dir/console.log
stacks=
[ -f "$dir/stacks.log" ] && stacks=$dir/stacks.log
kunit_py=$(kernel_src)/tools/testing/kunit/kunit.py
if [ ! -f "$chan" ] || [ ! -f "$cons" ]; then
	echo "verdict: no results in $dir" >&2
	exit 1
fi
[ -f "$manifest" ] || die "no manifest $manifest"
[ -f "$kunit_py" ] || die "no $kunit_py (run scripts/deps.sh)"

work=$dir/verdict
rm -rf "$work"
mkdir -p "$work/ktap"
# The console without its printk timestamps.
tr -d '\r' <"$cons" | sed -E 's/^\[ *[0-9]+\.[0-9]+\] //' >"$work/console"
tr -d '\r' <"$chan" >"$work/channel"

# OPP_NAME from the kernel command line: NAME="words" or NAME=word.
cmdline=$(grep -m 1 '^Kernel command line: ' "$work/console" || true)
param() {
	sed -nE "s/.* $1=(\"([^\"]*)\"|([^ \"]*)).*/\2\3/p" <<<" ${cmdline#*: }"
}
mode=$(param OPP_MODE)
[ "$tests_given" = 1 ] || tests=$(param OPP_TESTS)
scenarios=$(param OPP_SCENARIOS)
lifecycle=$(param OPP_LIFECYCLE)

# Cut each suite's KTAP from the console into a document of its own, as
# debugfs would show it: "KTAP version 1", "1..1", the suite, "ok 1 SUITE".
# A module's suite is numbered in the order of the boot: renumber it 1.
awk -v out="$work/ktap" '
function close_suite() { close(file); insuite = 0 }
prev == "    KTAP version 1" && /^    # Subtest: / {
	if (insuite) close_suite()
	suite = substr($0, 16)
	n = ++seen[suite]
	file = out "/" suite (n > 1 ? "~" n : "") ".ktap"
	print suite (n > 1 ? "~" n : "") >(out "/list")
	printf "KTAP version 1\n1..1\n%s\n", prev >file
	insuite = 1
}
insuite {
	line = $0
	if (line ~ ("^(not )?ok [0-9]+ " suite "( #.*)?$")) {
		sub(/ok [0-9]+ /, "ok 1 ", line)
		print line >file
		close_suite()
	} else {
		print line >file
	}
}
{ prev = $0 }
END { close(out "/list") }' "$work/console"
touch "$work/ktap/list"

# Parse each: the parser's verdict (exit status), its errors, each result.
: >"$work/suites"
while read -r s; do
	f=$work/ktap/$s
	rc=0
	python3 "$kunit_py" parse --json="$f.json" "$f.ktap" >"$f.txt" 2>&1 || rc=$?
	nerr=$(grep -c '\[ERROR\]' "$f.txt" || true)
	err=$(grep -m 1 '\[ERROR\]' "$f.txt" | sed -E 's/^\[[0-9:]+\] \[ERROR\] //' || true)
	printf '%s %s %s %s\n' "$s" "$rc" "$nerr" "$err" >>"$work/suites"
done <"$work/ktap/list"
# One line per result: SUITE<tab>STATUS<tab>CASE[: PARAMETER].
python3 - "$work/ktap" >"$work/results" <<'EOF'
import json
import sys

def results(group, prefix):
    # The parser names a result that never came "".
    for case in group.get("test_cases", []):
        yield prefix + (case["name"] or "(missing)"), case["status"]
    for sub in group.get("sub_groups", []):
        yield from results(sub, prefix + sub["name"] + ": ")

with open(f"{sys.argv[1]}/list") as f:
    suites = f.read().split()
for suite in suites:
    try:
        with open(f"{sys.argv[1]}/{suite}.json") as f:
            top = json.load(f)
    except (OSError, ValueError):
        continue
    found = list(results({"test_cases": top.get("test_cases", [])}, ""))
    for group in top.get("sub_groups", []):
        found += results(group, "")
    for name, status in found:
        print(suite, status, name, sep="\t")
EOF

# Splats: NAME REGEX, the first that matches names a console line. After
# the guest's power-off marker only the board's known report is excused.
# kmemleak's "N new suspected memory leaks" is not one: the guest sends
# kmemleak's report after its last scan, and that report is the judge
# (the boot's own leaks, forgotten before the tests, print it too).
splats='nonstatic-key	INFO: trying to register non-static key
lockdep-circular	possible circular locking dependency
lockdep-inconsistent	inconsistent lock state
lockdep	possible recursive locking|Invalid wait context|bad unlock balance|suspicious RCU usage|lock held when returning to user space|held lock freed|irq lock inversion|turning off the locking correctness validator
kasan	KASAN
kcsan	BUG: KCSAN:
ubsan	UBSAN:
rcu-expedited-stall	detected expedited stalls
rcu-stall	detected stalls?|self-detected stall
hung-task	blocked for more than [0-9]+ seconds
soft-lockup	soft lockup|hard LOCKUP
kmemleak-disabled	Kernel memory leak detector disabled|kmemleak: .*disabled
kmemleak	kmemleak: (Cannot allocate|Memory pool empty|.*unknown object|Found object by alias|Scan area larger)
sleep-in-atomic	sleeping function called from invalid context|scheduling while atomic
debugobjects	ODEBUG:
list-corruption	list_(add|del) corruption
divzero	Division by zero in kernel
printk-dropped	printk messages dropped
oops	Oops|Unable to handle kernel|Internal error:|kernel BUG
panic	Kernel panic
bug	BUG:
warning	WARNING:
trace	end trace'
noise='BUG: Invalid wait context'

awk -F '\t' -v mode="$mode" -v tests="$tests" -v scenarios="$scenarios" \
    -v lifecycle="$lifecycle" -v splats="$splats" -v noise="$noise" \
    -v cmdline="$cmdline" -v skip_ok=" $skip_ok " -v stacks="$stacks" '
function check(name, ok, why) {
	if (ok) {
		passed++
	} else {
		failed++
		printf "FAIL  %s%s\n", name, why == "" ? "" : ": " why
	}
}
function want(when,    s) {
	if (when == "always") return 1
	if (when == "tests") return tests != ""
	if (when == "lifecycle") return lifecycle != ""
	if (when ~ /^test:/) return (" " tests " ") ~ (" " substr(when, 6) " ")
	if (when ~ /^scenario:/) {
		s = substr(when, 10)
		return (" " scenarios " ") ~ (" " s " ")
	}
	return 0
}
BEGIN {
	nsplat = split(splats, sl, "\n")
	for (i = 1; i <= nsplat; i++) {
		split(sl[i], f, "\t"); sname[i] = f[1]; sre[i] = f[2]
	}
	ntests = split(tests, tmod, " ")
	for (i = 1; i <= ntests; i++) intests[tmod[i]] = 1
}
part == "manifest" {
	if ($0 ~ /^[ \t]*(#|$)/) next
	n = split($0, w, /[ \t]+/)
	if ((w[1] == "test" && (n == 4 || (n == 5 && w[5] ~ /^(arm|arm64|uml)(,(arm|arm64|uml))*$/))) ||
	    (w[1] == "canary" && n == 4)) {
		msuites[w[2]] = msuites[w[2]] " " w[3]
		smod[w[3]] = w[2]; expect[w[3]] = w[4] + 0
		known[w[2]] = 1
	} else if (w[1] == "check" && n == 3) {
		nchk++; cwhen[nchk] = w[2]; cname[nchk] = w[3]
	} else {
		check("manifest line " FNR, 0, "cannot read \"" $0 "\"")
	}
	next
}
part == "suites" {
	split($0, w, " ")
	s = w[1]; order[++nsuites] = s; prc[s] = w[2]; perr[s] = w[3]
	why = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ ?/, "", why); pwhy[s] = why
	next
}
part == "results" {
	s = $1; ran[s]++
	if ($2 == "PASS") {
		good[s]++; passed++
	} else if ($2 == "SKIP" && index(skip_ok, " " s "." $3 " ")) {
		good[s]++
		printf "skip  %s.%s (excused on this kernel)\n", s, $3
	} else {
		bad[s] = bad[s] " " $3; failed++
		printf "FAIL  %s.%s (%s)\n", s, $3,
		       $2 == "SKIP" ? "skipped" : $2 == "ERROR" ? "crashed" : "failed"
	}
	next
}
part == "channel" {
	if (/^suite /) { split($0, w, " "); chanmod[w[3]] = w[2]; next }
	if (inleak && /^kmemleak-end/) {
		inleak = 0
		check("kmemleak found no leak", leaks == "", "suspected leaks:\n" leaks)
		next
	}
	if (inleak) { leaks = leaks $0 "\n"; next }
	if (/^kmemleak-begin/) { inleak = 1; leaks = ""; sawleak = 1; next }
	if (/^check /) {
		split($0, w, " "); why = $0; sub(/^check [^ ]+ [^ ]+ ?/, "", why)
		reported[w[2]] = 1
		check("check " w[2], w[3] == "ok", why)
		next
	}
	if (/^(insmod|rmmod) /) {
		split($0, w, " "); did[w[1] " " w[2]] = w[3]
		check(w[1] " " w[2], w[3] == "ok", "")
		next
	}
	if (/^opp-verdict-end/) finished = 1
	if (/^opp-harness: timeout/) timedout = $0
	next
}
part == "console" {
	if ($0 ~ /opp-guest: done$/) done = 1
	if ($0 ~ /opp-guest: power-off$/) poweroff = 1
	if ($0 ~ /kmemleak: Kernel memory leak detector initialized/) kmlinit = 1
	if (poweroff && $0 ~ noise) { excused++; next }
	for (i = 1; i <= nsplat; i++)
		if ($0 ~ sre[i]) {
			if (!hits[i]++) first[i] = $0
			else if (hits[i] <= 3) first[i] = first[i] "\n      " $0
			break
		}
	if (/^    # [A-Za-z0-9_]+: torture: /) {
		line = $0; sub(/^.*: torture: /, "", line); torture[++ntorture] = line
	}
	next
}
END {
	if (cmdline == "")
		check("kernel command line on the console", 0,
		      "none: cannot tell what the run was meant to do")
	# Every suite of every module of the run, as the manifest has it.
	for (i = 1; i <= ntests; i++) {
		m = tmod[i]
		if (!known[m]) {
			check("module " m, 0, "not in the manifest")
			continue
		}
		if (did["insmod " m] == "") check("insmod " m, 0, "not reported")
		if (did["rmmod " m] == "") check("rmmod " m, 0, "not reported")
		ns = split(msuites[m], ms, " ")
		for (j = 1; j <= ns; j++) {
			s = ms[j]
			if (!(s in prc)) {
				check("suite " s " (" m ")", 0, "did not run")
				continue
			}
			wanted[s] = 1
			# The parser exits 1 on a failed result too.
			if (perr[s] > 0 || (prc[s] != 0 && bad[s] == ""))
				check("suite " s " (" m ")", 0, "KTAP parser: " \
				      (perr[s] > 0 ? perr[s] " errors, first: " pwhy[s] : \
				       "exit status " prc[s]))
			if (ran[s] != expect[s])
				check("suite " s " (" m ")", 0, ran[s] + 0 \
				      " results, the manifest expects " expect[s])
			if (chanmod[s] != m)
				check("suite " s " (" m ")", 0, chanmod[s] == "" ? \
				      "the guest did not see it in debugfs" : \
				      "the guest saw it come with " chanmod[s])
		}
	}
	for (i = 1; i <= nsuites; i++) {
		s = order[i]
		if (!wanted[s])
			check("suite " s, 0, s ~ /~/ ? "ran more than once" : \
			      smod[s] == "" ? "ran, and the manifest does not know it" : \
			      "ran, and its module " smod[s] " is not in the run")
		printf "suite %-24s %3d/%-3d passed%s\n", s, good[s], ran[s],
		       bad[s] == "" ? "" : "   not passed:" bad[s]
	}
	for (i = 1; i <= ntorture; i++)
		printf "torture  %s\n", torture[i]
	if (mode == "check") {
		if (did["insmod opp"] == "") check("insmod opp", 0, "not reported")
		if (did["rmmod opp"] == "") check("rmmod opp", 0, "not reported")
		for (i = 1; i <= nchk; i++) {
			if (!want(cwhen[i])) continue
			c = cname[i]; seen = 0
			if (c ~ /\*$/) {
				p = substr(c, 1, length(c) - 1)
				for (r in reported)
					if (substr(r, 1, length(p)) == p) seen = 1
			} else {
				seen = c in reported
			}
			if (!seen) check("check " c, 0, "not reported")
		}
		if (!sawleak) check("kmemleak found no leak", 0, "no report")
		check("kmemleak initialised at boot", kmlinit,
		      "no \"Kernel memory leak detector initialized\" on the console")
	}
	check("guest finished", finished && timedout == "",
	      timedout == "" ? "no end marker (crash or panic?)" : \
	      timedout (stacks == "" ? "" : "; every task'"'"'s stack in " stacks))
	if (finished)
		check("console complete", done, "no \"opp-guest: done\" marker")
	nhit = 0
	for (i = 1; i <= nsplat; i++)
		if (hits[i]) {
			nhit++
			check("splat " sname[i], 0, hits[i] " lines, first:\n      " first[i])
		}
	if (nhit == 0) check("no kernel splat", 1, "")
	if (excused) printf "note  %d line(s) of the board'"'"'s power-off report excused\n", excused
	printf "%d passed, %d failed\n", passed, failed
	exit failed > 0
}' part=manifest "$manifest" part=suites "$work/suites" \
	part=results "$work/results" part=channel "$work/channel" \
	part=console "$work/console" && exit 0

# On failure, show where it went wrong on the console.
echo "--- console excerpt ($cons) ---"
pattern=$(cut -f 2 <<<"$splats" | paste -sd '|')
grep -nE -B2 -A20 "$pattern|not ok|EXPECTATION FAILED|ASSERTION FAILED" \
	"$work/console" | head -n 120 || tail -n 40 "$work/console"
exit 1
