#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Judge a guest run from its report channel and its console.
#
#   verdict.sh DIR
#
# Passes only if the guest finished, every module loaded and unloaded,
# every KUnit suite ran as many cases as it declared and all passed (a
# skipped case counts as failed), kmemleak found nothing and the console
# shows no kernel splat up to the end of the tests. Prints a summary and
# the closing line "N passed, N failed", counting each KUnit case and each
# harness check; exits 1 on any failure.
#
# Besides KTAP, the guest may report any check of its own (a user-space
# scenario, say) as a line "check NAME ok" or "check NAME failed REASON".
# The "torture:" diagnostic lines of a suite (opp_torture's figures: ops
# and ops/s per reader, hard-interrupt lookups, updaters, violations) are
# printed in the summary.
set -euo pipefail

dir=${1:?usage: verdict.sh DIR}
chan=$dir/channel.log
cons=$dir/console.log
if [ ! -f "$chan" ] || [ ! -f "$cons" ]; then
	echo "verdict: no results in $dir" >&2
	exit 1
fi

# What the kernel prints when something went wrong, whoever caused it.
splats='BUG:|WARNING:|Oops|Unable to handle kernel|Internal error:|kernel BUG|KASAN|UBSAN|Kernel panic|detected stalls?|blocked for more than|scheduling while atomic|sleeping function called from invalid context|suspected memory leak|ODEBUG:|list_(add|del) corruption|end trace'

# The console up to the guest's end-of-tests marker: after it, the board's
# power-off path prints lockdep noise of its own (see NOTES).
tr -d '\r' <"$cons" | sed '/^opp-guest: done/q' >"$dir/console.judged"
tr -d '\r' <"$chan" >"$dir/channel.judged"

awk -v splats="$splats" -v cons="$dir/console.judged" '
function check(name, ok, why) {
	if (ok) {
		passed++
	} else {
		failed++
		printf "FAIL  %s%s\n", name, why == "" ? "" : ": " why
	}
}
/^suite / { suite = $3; mod[suite] = $2; order[++nsuites] = suite
	    plan[suite] = -1; insuite = 1; next }
/^endsuite / { insuite = 0; next }
insuite && /^    1\.\.[0-9]+$/ { sub(/^ +1\.\./, ""); plan[suite] = $0 + 0; next }
insuite && /^    # [A-Za-z0-9_]+: torture: / {
	line = $0; sub(/^.*: torture: /, "", line)
	torture[++ntorture] = suite ": " line; next
}
insuite && /^    (not )?ok [0-9]+ / {
	line = $0; sub(/^ +/, "", line)
	ok = (line ~ /^ok /) && (line !~ /# SKIP/)
	name = line; sub(/^(not )?ok [0-9]+ /, "", name); sub(/ #.*/, "", name)
	ran[suite]++
	if (ok) { good[suite]++; passed++ }
	else { failed++; bad[suite] = bad[suite] " " name
	       printf "FAIL  %s.%s%s\n", suite, name,
		      line ~ /# SKIP/ ? " (skipped)" : "" }
	next
}
/^check / { why = $0; sub(/^check [^ ]+ [^ ]+ ?/, "", why)
	    check($2, $3 == "ok", why); next }
/^insmod / { check("insmod " $2, $3 == "ok", ""); next }
/^rmmod / { check("rmmod " $2, $3 == "ok", ""); next }
/^kmemleak-begin/ { inleak = 1; leaks = ""; sawleak = 1; next }
/^kmemleak-end/ { inleak = 0
		  check("kmemleak", leaks == "", "suspected leaks:\n" leaks); next }
inleak { leaks = leaks $0 "\n"; next }
/^opp-guest: mode check/ { mode_check = 1 }
/^opp-verdict-end/ { finished = 1 }
/^opp-harness: timeout/ { timedout = 1 }
END {
	for (i = 1; i <= nsuites; i++) {
		s = order[i]
		if (plan[s] < 0 || ran[s] != plan[s]) {
			failed++
			printf "FAIL  %s: ran %d of the %d cases it declared\n",
			       s, ran[s], plan[s]
		}
		printf "suite %-24s %3d/%-3d passed%s\n", s, good[s], plan[s],
		       bad[s] == "" ? "" : "   failed:" bad[s]
	}
	# The torture figures: ops and ops/s per reader, violations.
	for (i = 1; i <= ntorture; i++)
		printf "torture  %s\n", torture[i]
	check("kunit suites reported", nsuites > 0, "no suite ran")
	check("guest finished", finished && !timedout,
	      timedout ? "timeout" : "no end marker (crash or panic?)")
	if (mode_check) check("kmemleak scanned", sawleak, "")
	nsplat = 0
	while ((getline l < cons) > 0)
		if (l ~ splats) { nsplat++; if (nsplat <= 5) where = where "  " l "\n" }
	check("no kernel splat", nsplat == 0, nsplat " lines, first:\n" where)
	printf "%d passed, %d failed\n", passed, failed
	exit failed > 0
}' "$dir/channel.judged" && exit 0

# On failure, show where it went wrong on the console.
echo "--- console excerpt ($cons) ---"
grep -nE -B2 -A20 "$splats|not ok|EXPECTATION FAILED|ASSERTION FAILED" \
	"$dir/console.judged" | head -n 120 || tail -n 40 "$dir/console.judged"
exit 1
