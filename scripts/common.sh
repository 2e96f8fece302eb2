# SPDX-License-Identifier: GPL-2.0
# Shared settings for the host-side scripts; sourced, never run.
# shellcheck shell=bash

# Where everything that is not source lives: the unpacked kernel trees, the
# kernel builds (one directory per version and flavour), the guest's
# busybox, the module builds for flavours other than debug, the runs.
OPP_CACHE=${OPP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/opp}
# Where guest runs leave their logs (console, report channel).
OPP_RUNS=${OPP_RUNS:-$OPP_CACHE/runs}
KVER=${KVER:-6.1}
FLAVOUR=${FLAVOUR:-debug}
ARCH=arm
CROSS_COMPILE=${CROSS_COMPILE:-arm-linux-gnueabihf-}
export ARCH CROSS_COMPILE

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JOBS=${JOBS:-$(($(nproc) + 1))}

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The key of a kernel build: the Debian package version of the source and
# a hash of every input that shapes the .config.
kernel_key() {
	local pkgver hash
	pkgver=$(dpkg-query -W -f='${Version}' "linux-source-$KVER" 2>/dev/null) ||
		die "linux-source-$KVER is not installed (run scripts/deps.sh)"
	hash=$(cat "$TOP/configs/arm.config" "$TOP/configs/$FLAVOUR.config" |
		sha256sum | cut -c1-12)
	echo "$KVER-$pkgver-$FLAVOUR-$hash"
}

kernel_src() { echo "$OPP_CACHE/src/linux-source-$KVER"; }
kernel_build() { echo "$OPP_CACHE/build/$KVER-$FLAVOUR"; }
# Where the modules for $FLAVOUR are built (the Makefile's MODDIR): this
# tree for debug, a copy of the sources of their own for another flavour.
module_dir() {
	if [ "$FLAVOUR" = debug ]; then
		echo "$TOP"
	else
		echo "$OPP_CACHE/modules/$KVER-$FLAVOUR"
	fi
}
