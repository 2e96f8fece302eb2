#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make run / make shell: build what is missing, then boot the guest.
#   run.sh --mode demo|shell
# demo: the guest loads the library and its demo consumer (opp_demo), then
# the cpufreq sample, and tells the cpufreq story from user space; the
# terminal shows the story alone (run-qemu.sh's story_lines), then the
# guest's report, then where the whole console is (the kernel's own lines
# stay there; its tail is shown if the guest does not finish).
# shell: the same modules loaded, and a shell on the terminal. Results in
# $OPP_RUNS/MODE.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

mode=demo
[ "${1:-}" = --mode ] && mode=$2

# Installs what is missing and builds the kernel first (make's kernel).
make -s -C "$TOP" modules >/dev/null
out=$OPP_RUNS/$mode
rm -rf "$out"
"$TOP/scripts/run-qemu.sh" --mode "$mode" --out "$out" \
	--timeout "${OPP_QEMU_TIMEOUT:-600}"
[ "$mode" = shell ] && exit 0
echo
echo "--- the guest's report ($out/channel.log) ---"
tr -d '\r' <"$out/channel.log"
if grep -q '^opp-verdict-end' "$out/channel.log"; then
	echo
	echo "--- the guest's whole console, the kernel's lines too: $out/console.log"
	exit 0
fi
echo
echo "--- the guest did not finish: the last 40 lines of its console ($out/console.log) ---"
tail -n 40 "$out/console.log"
exit 1
