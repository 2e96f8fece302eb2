#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the vexpress-a9 guest with this tree's modules.
#
#   run-qemu.sh [--mode check|demo|shell] [--out DIR] [--timeout SEC]
#               [--tests "MOD..."] [--test-args "PARAM=VALUE..."]
#               [--torture-seconds SEC] [--lifecycle CYCLES]
#
# The console goes to DIR/console.log (and to the terminal for demo and
# shell), the guest's report to DIR/channel.log through a second serial
# line. In check and demo modes QEMU is stopped as soon as the report is
# complete, before the board's power-off path can print its own noise.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

mode=check
out=
timeout=${OPP_QEMU_TIMEOUT:-300}
tests="opp_test opp_ext_test"
test_args=
torture_seconds=
lifecycle=
while [ $# -gt 0 ]; do
	case "$1" in
	--mode) mode=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--tests) tests=$2; shift 2 ;;
	--test-args) test_args=$2; shift 2 ;;
	--torture-seconds) torture_seconds=$2; shift 2 ;;
	--lifecycle) lifecycle=$2; shift 2 ;;
	*) die "unknown argument $1" ;;
	esac
done
case "$mode" in check|demo|shell) ;; *) die "unknown mode $mode" ;; esac

build=$(kernel_build)
zimage=$build/arch/arm/boot/zImage
dtb=$build/arch/arm/boot/dts/vexpress-v2p-ca9.dtb
[ -f "$zimage" ] || die "no kernel in $build (run scripts/build-kernel.sh)"
[ -n "$out" ] || out=$(mktemp -d)
mkdir -p "$out"
: >"$out/console.log"
: >"$out/channel.log"

"$TOP/scripts/mkinitramfs.sh" "$out/initramfs.cpio.gz"
[ -n "${OPP_DTB:-}" ] && dtb=$OPP_DTB

append="console=ttyAMA0 panic=-1 panic_on_warn=1 OPP_MODE=$mode"
append+=" OPP_TESTS=\"$tests\" OPP_TEST_ARGS=\"$test_args\""
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
# The board has a sound chip and no host sound card is wanted.
export QEMU_AUDIO_DRV=none
qemu=(qemu-system-arm -M vexpress-a9 -smp 4 -m 512 -no-reboot
      -kernel "$zimage" -dtb "$dtb" -initrd "$out/initramfs.cpio.gz"
      -append "$append" -display none -monitor none)

if [ "$mode" = shell ]; then
	exec "${qemu[@]}" -serial mon:stdio -serial "file:$out/channel.log"
fi

log "booting the guest ($mode), results in $out"
start=$(date +%s)
"${qemu[@]}" -serial "file:$out/console.log" -serial "file:$out/channel.log" &
qpid=$!
[ "$mode" = demo ] && tail -n +1 -f "$out/console.log" --pid=$qpid &
while kill -0 "$qpid" 2>/dev/null; do
	grep -q '^opp-verdict-end' "$out/channel.log" && break
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
