#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the host packages the harness needs, when they are missing, and
# put Debian's static busybox and static bash (the kernel's cpufreq
# selftests are bash scripts) for the guest's architecture (armhf; arm64
# for ARCH=arm64; amd64 for User-Mode Linux) in $OPP_CACHE.
# EXTRA_PKGS adds packages. Needs root (or sudo) only
# when something is missing; silent when nothing is.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

pkgs=(build-essential bc bison flex libssl-dev cpio kmod xz-utils
      gcc-arm-linux-gnueabihf qemu-system-arm device-tree-compiler sparse
      shellcheck python3 python3-docutils "linux-source-$KVER")
# The arm64 guest's cross compiler (qemu-system-aarch64 comes with
# qemu-system-arm).
[ "$TIER" = arm64 ] && pkgs+=(gcc-aarch64-linux-gnu)
# make check builds the library with dkms, as a board would
# (scripts/commands.sh).
pkgs+=(dkms)
# A stuck UML guest's host-side backtrace (run-qemu.sh, stacks.log).
[ "$TIER" = uml ] && pkgs+=(gdb)
# make bench's plots.
[ "$FLAVOUR" = bench ] && pkgs+=(gnuplot-nox)
[ -n "${EXTRA_PKGS:-}" ] && read -ra extra <<<"$EXTRA_PKGS" && pkgs+=("${extra[@]}")

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done

# The guest's static busybox and bash, for the architecture of $TIER's
# guest: PACKAGE:ARCH, the binary in the package, where it goes.
busybox=$(busybox_bin)
bash=$(bash_bin)
guest=()
[ -x "$busybox" ] || guest+=("busybox-static /bin/busybox $busybox")
[ -x "$bash" ] || guest+=("bash-static /bin/bash-static $bash")

if [ ${#missing[@]} -eq 0 ] && [ ${#guest[@]} -eq 0 ]; then
	exit 0
fi

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive

if [ ${#guest[@]} -gt 0 ] &&
   [ "$BUSYBOX_ARCH" != "$(dpkg --print-architecture)" ] &&
   ! dpkg --print-foreign-architectures | grep -qx "$BUSYBOX_ARCH"; then
	$SUDO dpkg --add-architecture "$BUSYBOX_ARCH"
fi
guest_pkgs=
for g in "${guest[@]}"; do
	guest_pkgs+=" ${g%% *}:$BUSYBOX_ARCH"
done
log "installing: ${missing[*]}$guest_pkgs"
# A mirror caught mid-sync fails one index (apt-get update exits 100, the
# others updated): try again, then go on with the lists there are; the
# install below fails if what it needs is really missing.
update_log=$(mktemp)
for try in 1 2 3; do
	$SUDO apt-get update -q >/dev/null 2>"$update_log" && break
	if [ "$try" = 3 ]; then
		log "apt-get update failed 3 times, going on with the package lists there are:"
		grep -E '^(E|W):' "$update_log" >&2 || true
	else
		sleep 10
	fi
done
rm -f "$update_log"
if [ ${#missing[@]} -gt 0 ]; then
	$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# As root, apt downloads as the user _apt, which must be able to write
# here (or apt warns that it downloads unsandboxed).
if [ "$(id -u)" -eq 0 ] && id -u _apt >/dev/null 2>&1; then
	chown _apt "$tmp"
fi
for g in "${guest[@]}"; do
	read -r pkg bin dest <<<"$g"
	(cd "$tmp" && apt-get download -q "$pkg:$BUSYBOX_ARCH" >/dev/null)
	dpkg -x "$tmp/${pkg}_"*"_$BUSYBOX_ARCH.deb" "$tmp/$pkg"
	dir=$(dirname "$dest")
	rm -rf "$dir"
	mkdir -p "$dir"
	cp "$tmp/$pkg$bin" "$dest"
	log "$pkg ($BUSYBOX_ARCH) in $dir"
done
