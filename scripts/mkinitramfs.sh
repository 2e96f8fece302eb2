#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest's initramfs: busybox, initramfs/init, the cpufreq
# scenario, bash and the kernel's cpufreq selftests (copied from the
# unpacked kernel tree, tools/testing/selftests/cpufreq, into
# /lib/selftests/cpufreq, with the kselftest KTAP helpers where the tree
# has them), and every module built for $TIER and $FLAVOUR
# (see module_dir), packed by the gen_init_cpio that the kernel build made
# in its usr/.
# Usage: mkinitramfs.sh OUTPUT.cpio.gz
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

out=${1:?usage: mkinitramfs.sh OUTPUT.cpio.gz}
busybox=$(busybox_bin)
[ -x "$busybox" ] || die "no $BUSYBOX_ARCH busybox in $OPP_CACHE (run scripts/deps.sh)"
bash=$(bash_bin)
[ -x "$bash" ] || die "no $BUSYBOX_ARCH bash in $OPP_CACHE (run scripts/deps.sh)"
selftests=$(kernel_src)/tools/testing/selftests/cpufreq
[ -f "$selftests/main.sh" ] || die "no $selftests/main.sh (run scripts/deps.sh)"

gen=$(kernel_build)/usr/gen_init_cpio
[ -x "$gen" ] || die "no $gen (run scripts/build-kernel.sh)"

list=$(mktemp)
trap 'rm -f "$list"' EXIT
sed -e "/^#/d" -e "s|@BUSYBOX@|$busybox|" -e "s|@INIT@|$TOP/initramfs/init|" \
	-e "s|@TOP@|$TOP|" \
	"$TOP/initramfs/files.list" >"$list"
{
	echo "file /bin/bash $bash 755 0 0"
	echo "dir /lib/selftests 755 0 0"
	echo "dir /lib/selftests/cpufreq 755 0 0"
	for f in "$selftests"/*.sh; do
		echo "file /lib/selftests/cpufreq/$(basename "$f") $f 755 0 0"
	done
	# 6.12's main.sh sources the kselftest KTAP helpers beside its dir.
	ktap=$selftests/../kselftest/ktap_helpers.sh
	if [ -f "$ktap" ]; then
		echo "dir /lib/selftests/kselftest 755 0 0"
		echo "file /lib/selftests/kselftest/ktap_helpers.sh $ktap 644 0 0"
	fi
} >>"$list"
# What the last build listed, not whatever .ko lies around: a module
# that stopped being built must be missing from the guest, not stale.
dir=$(module_dir)
[ -f "$dir/modules.order" ] || die "no $dir/modules.order (run make modules)"
mapfile -t mods < <(sed -e 's/\.o$/.ko/' -e "s|^[^/]|$dir/&|" \
	"$dir/modules.order")
[ ${#mods[@]} -gt 0 ] || die "no module built (run make modules)"
for m in "${mods[@]}"; do
	[ -f "$m" ] || die "$m is in modules.order but was not built"
	echo "file /lib/modules/opp/$(basename "$m") $m 644 0 0" >>"$list"
done
"$gen" "$list" | gzip -1 >"$out"
