#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check's gate on the README's commands that no guest boot runs:
# each is run as a user would run it on a fresh clone (a copy of the
# tree, without this checkout's objects), against the kernel of this
# check ($KVER, $TIER), and what it leaves is checked, one counted check
# each:
#
#   install   make install KDIR=... ARCH=... CROSS_COMPILE=...
#             INSTALL_MOD_PATH=ROOT, the README's board command (its
#             KDIR path is make modules KDIR=...'s too): opp.ko alone
#             under ROOT/lib/modules/RELEASE/, built for the kernel's
#             machine, and depmod's modules.dep names it
#   dkms      dkms build of dkms.conf against the kernel build, in a
#             dkms tree and source tree of its own (nothing of this
#             host's dkms is touched): opp.ko in the build's module
#             directory, built for the kernel's machine
#
# The bench modules are built by every make check (Kbuild builds bench/
# with the tests); make bench itself, on its own kernel, is a CI job of
# its own (.ci/run). Ends with "N passed, N failed".
#
#   commands.sh [--tree DIR]
#
# --tree DIR: the sources to copy (default: this checkout); check.sh's
# self-check gives it a copy with each command broken.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

tree=$TOP
while [ $# -gt 0 ]; do
	case "$1" in
	--tree) tree=$(cd "${2:?--tree wants a directory}" && pwd); shift 2 ;;
	*) die "unknown argument $1" ;;
	esac
done

build=$(kernel_build)
[ -f "$build/Module.symvers" ] ||
	die "no built kernel in $build (run scripts/build-kernel.sh)"
release=$(cat "$build/include/config/kernel.release")
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# machine ELF: the machine an ELF file is built for, as readelf names it.
machine() { { readelf -h "$1" 2>/dev/null || true; } | sed -n 's/^ *Machine: *//p'; }
kernel_machine=$(machine "$build/vmlinux")

# built_for KO: nothing if KO is a module for this kernel's machine, else
# why not.
built_for() {
	local m
	m=$(machine "$1")
	[ "$m" = "$kernel_machine" ] ||
		echo "${1##*/} is built for '$m', the kernel for '$kernel_machine'"
}


# The README's board command, from a copy of the tree.
tree_copy "$tmp/install" "$tree"
root=$tmp/root
: >"$tmp/install.err"
if ! kernel_make -C "$tmp/install" install KDIR="$build" ARCH="$ARCH" \
	CROSS_COMPILE="$CROSS_COMPILE" INSTALL_MOD_PATH="$root" \
	>"$tmp/install.log" 2>&1; then
	tail -n 20 "$tmp/install.log" >"$tmp/install.err"
else
	mods=$root/lib/modules/$release
	mapfile -t got < <(cd "$mods" 2>/dev/null && find . -name '*.ko' |
		sed 's|^\./||' | sort)
	{
		if [ "${#got[@]}" != 1 ] || [ "${got[0]##*/}" != opp.ko ]; then
			echo "installed under lib/modules/$release: '${got[*]}', not opp.ko alone"
		fi
		for ko in "${got[@]}"; do
			[ "${ko##*/}" = opp.ko ] || continue
			grep -q "^$ko:" "$mods/modules.dep" 2>/dev/null ||
				echo "modules.dep (depmod) does not name $ko"
			built_for "$mods/$ko"
		done
	} >>"$tmp/install.err"
fi
gate commands install "make install KDIR=... INSTALL_MOD_PATH=ROOT: ${got[*]:-?} in ROOT/lib/modules/$release, in modules.dep" \
	"$tmp/install.err"

# dkms, as on a board (dkms.conf), with trees of its own: its source
# tree holds opp-VERSION, a copy of the tree; kbuild gets the guest's
# ARCH and CROSS_COMPILE from the environment (common.sh exports them),
# as a cross build would.
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$tree/dkms.conf")
tree_copy "$tmp/dkms-src/opp-$version" "$tree"
mkdir -p "$tmp/dkms"
: >"$tmp/dkms.err"
if ! dkms build "opp/$version" \
	-k "$release" -a "$ARCH" --kernelsourcedir "$build" \
	--sourcetree "$tmp/dkms-src" --dkmstree "$tmp/dkms" \
	>"$tmp/dkms.log" 2>&1; then
	tail -n 20 "$tmp/dkms.log" >"$tmp/dkms.err"
	f=$tmp/dkms/opp/$version/build/make.log
	[ ! -f "$f" ] || tail -n 20 "$f" >>"$tmp/dkms.err"
fi
ko=$(find "$tmp/dkms/opp/$version" -path '*/module/opp.ko*' 2>/dev/null | head -n 1)
if [ -n "$ko" ]; then
	built_for "$ko" >>"$tmp/dkms.err"
elif [ ! -s "$tmp/dkms.err" ]; then
	echo "dkms build succeeded and left no module/opp.ko in its tree" >>"$tmp/dkms.err"
fi
gate commands dkms "dkms build opp/$version against $release: ${ko#"$tmp/dkms/"}" "$tmp/dkms.err"

closing_line
[ "$failed" -eq 0 ]
