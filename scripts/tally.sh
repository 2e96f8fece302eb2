# SPDX-License-Identifier: GPL-2.0
# Counting results, the one way every host-side script does it; sourced
# (never run) by scripts/common.sh and by .ci/run. A script counts its
# checks in $passed and $failed and ends on closing_line; a script that
# runs others adds their closing lines up with tally.
# shellcheck shell=bash

# counted LABEL NAME yes|no: one check, its "ok" or "FAIL" line printed
# and counted.
counted() {
	if [ "$3" = yes ]; then
		passed=$((passed + 1))
		echo "ok    $1: $2"
	else
		failed=$((failed + 1))
		echo "FAIL  $1: $2"
	fi
}

# gate LABEL NAME SUMMARY FINDINGS-FILE: a counted check that passes if
# the file is empty; else its findings are printed, indented.
gate() {
	if [ ! -s "$4" ]; then
		counted "$1" "$2: $3" yes
	else
		counted "$1" "$2: $(wc -l <"$4") lines of findings" no
		sed 's/^/      /' "$4"
	fi
}

# The closing line's pattern, as grep -E reads it.
CLOSING_RE='^[0-9]+ passed, [0-9]+ failed$'

closing_line() { echo "$passed passed, $failed failed"; }

# tally TEXT: add the last closing line of TEXT (a sub-run's output) to
# $passed and $failed. Output without one is a run that died before its
# verdict: one failure.
tally() {
	local line f

	line=$(grep -E "$CLOSING_RE" <<<"$1" | tail -n 1) || true
	if [ -z "$line" ]; then
		failed=$((failed + 1))
		return
	fi
	f=${line#*passed, }
	passed=$((passed + ${line%% passed*}))
	failed=$((failed + ${f%% failed*}))
}

# without_closing: stdin without its closing lines, which the caller's
# own closing line sums.
without_closing() { grep -vE "$CLOSING_RE" || true; }
