#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make run / make shell: build what is missing, then boot the guest with
# the library and the demo consumer.
#   run.sh --mode demo|shell
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

mode=demo
[ "${1:-}" = --mode ] && mode=$2

"$TOP/scripts/deps.sh"
"$TOP/scripts/build-kernel.sh" >/dev/null
make -s -C "$TOP" modules >/dev/null
out=$OPP_RUNS/$mode
rm -rf "$out"
"$TOP/scripts/run-qemu.sh" --mode "$mode" --out "$out" \
	--timeout "${OPP_QEMU_TIMEOUT:-600}"
[ "$mode" = shell ] && exit 0
echo
echo "--- the guest's report ($out/channel.log) ---"
tr -d '\r' <"$out/channel.log"
grep -q '^opp-verdict-end' "$out/channel.log"
