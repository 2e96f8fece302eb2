#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unpack Debian's linux-source tree into the cache and build it for the
# guest of $TIER: for arm (QEMU vexpress-a9) and arm64 (QEMU virt),
# allnoconfig + configs/$ARCH.config + configs/$FLAVOUR.config, as
# WireGuard's tests/qemu builds its guests: only what the guest runs, so
# that a cold build takes minutes; for uml (User-Mode Linux,
# x86_64), allnoconfig + configs/um.config + configs/um-debug.config
# or configs/$FLAVOUR.config (kernel_fragments in common.sh). One build
# directory per version, tier and flavour; it is rebuilt (incrementally)
# only when the key of its inputs changes.
# OPP_KERNEL=prepare stops after `make modules_prepare` (a minute or two):
# enough to compile, sparse-check and lint external modules, not to boot
# them; a full build serves a prepare request too.
# Prints the build directory on stdout.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

src=$(kernel_src)
key=$(kernel_key)
build=$(kernel_build)
pkgver=$(dpkg-query -W -f='${Version}' "linux-source-$KVER")
image=$(kernel_image)
read -ra frags <<<"$(kernel_fragments)"
case "$TIER" in
arm) targets=(zImage dtbs modules) ;;
# The virt board's device tree comes from QEMU itself (run-qemu.sh).
arm64) targets=(Image modules) ;;
uml) targets=(linux modules) ;;
esac
case "${OPP_KERNEL:-full}" in
full) done_key=$key ;;
prepare) targets=(modules_prepare) done_key=$key-prepared ;;
*) die "OPP_KERNEL is full or prepare, not '$OPP_KERNEL'" ;;
esac

is_cached() {
	local have
	have=$(cat "$build/.opp-key" 2>/dev/null) || return 1
	if [ "$done_key" = "$key" ]; then
		[ "$have" = "$key" ] && [ -f "$image" ]
	else
		[ "$have" = "$key" ] || [ "$have" = "$done_key" ]
	fi
}

# One kernel build at a time on this machine, whoever asks for it; a
# cached kernel needs no lock.
if ! is_cached; then
	mkdir -p "$OPP_CACHE"
	exec 9>"$OPP_CACHE/build.lock"
	flock 9
fi

if [ ! -f "$src/.opp-unpacked-$pkgver" ]; then
	log "unpacking linux-source-$KVER ($pkgver)"
	rm -rf "$src"
	mkdir -p "$OPP_CACHE/src"
	tar -C "$OPP_CACHE/src" -xf "/usr/src/linux-source-$KVER.tar.xz"
	touch "$src/.opp-unpacked-$pkgver"
fi

if is_cached; then
	log "kernel $key: cached"
	echo "$build"
	exit 0
fi

mkdir -p "$build"
rm -f "$build/.opp-key"
kmake() {
	kernel_make -C "$src" O="$build" ARCH="$ARCH" \
		CROSS_COMPILE="$CROSS_COMPILE" "$@"
}

log "configuring $key"
kmake -s "$(kernel_base)" >/dev/null
"$src/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" \
	"${frags[@]}" >/dev/null
kmake -s olddefconfig >/dev/null

# merge_config only warns when Kconfig drops an option (a missing
# dependency, a renamed symbol): make that fatal.
bad=0
while read -r line; do
	case "$line" in
	CONFIG_*=*) want=$line; sym=${line%%=*} ;;
	"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *}; want="# $sym is not set" ;;
	*) continue ;;
	esac
	# an option that is off may also be absent (its dependencies are off)
	if ! grep -qxF "$want" "$build/.config" &&
	   { [ "${want:0:1}" != "#" ] || grep -q "^$sym=" "$build/.config"; }; then
		got=$(grep -E "^$sym=|^# $sym is not set" "$build/.config" || echo "absent")
		printf 'config: wanted "%s", got "%s"\n' "$want" "$got" >&2
		bad=1
	fi
done < <(cat "${frags[@]}")
[ $bad -eq 0 ] || die "the kernel config did not take the fragments above"

log "building $key (${targets[*]}) with -j$JOBS (log: $build/build.log)"
start=$(date +%s)
kmake -j"$JOBS" "${targets[@]}" >"$build/build.log" 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	sleep 30
	n=$(grep -c '^  CC ' "$build/build.log" || true)
	log "  ... $n files compiled, $(($(date +%s) - start)) s"
done
if ! wait "$pid"; then
	tail -n 40 "$build/build.log" >&2
	die "kernel build failed"
fi
echo "$done_key" >"$build/.opp-key"
log "kernel $done_key built in $(($(date +%s) - start)) s"
echo "$build"
