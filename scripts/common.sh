# SPDX-License-Identifier: GPL-2.0
# Shared settings for the host-side scripts; sourced, never run.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/defaults.sh
. "$TOP/scripts/defaults.sh"
# shellcheck source=scripts/tally.sh
. "$TOP/scripts/tally.sh"
JOBS=${JOBS:-$(($(nproc) + 1))}

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
# The kernel's make, free of any calling make's flags: make -s would
# silence the progress lines that the build's count and lint's gates read.
kernel_make() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make "$@"; }

# TIER picks the guest: arm, the QEMU vexpress-a9 board (make check, the
# gate), arm64, the QEMU virt board with a KCSAN kernel (make check
# ARCH=arm64), or uml, User-Mode Linux run as a process of this x86_64
# host (make quick, the fast loop; the bench at native speed). Without a
# TIER, kbuild's ARCH picks it: arm64 for arm64, uml for um, else arm.
if [ -n "${TIER:-}" ] && [ -n "${ARCH:-}" ]; then
	case "$TIER:$ARCH" in
	arm:arm|arm64:arm64|uml:um) ;;
	*) die "ARCH=$ARCH and TIER=$TIER name different guests" ;;
	esac
fi
if [ -z "${TIER:-}" ]; then
	case "${ARCH:-arm}" in
	arm64) TIER=arm64 ;;
	um) TIER=uml ;;
	arm) TIER=arm ;;
	*) die "unknown ARCH '$ARCH' (arm, arm64 or um)" ;;
	esac
fi
case "$TIER" in
arm)
	ARCH=arm
	CROSS_COMPILE=${CROSS_COMPILE:-arm-linux-gnueabihf-}
	BUSYBOX_ARCH=armhf
	;;
arm64)
	ARCH=arm64
	CROSS_COMPILE=aarch64-linux-gnu-
	BUSYBOX_ARCH=arm64
	;;
uml)
	ARCH=um
	SUBARCH=x86_64
	CROSS_COMPILE=
	BUSYBOX_ARCH=amd64
	export SUBARCH
	;;
*) die "unknown TIER '$TIER' (arm, arm64 or uml)" ;;
esac
# The arm64 guest has one kernel, the KCSAN one (configs/kcsan.config).
if [ "$TIER" = arm64 ]; then
	FLAVOUR=${FLAVOUR:-kcsan}
else
	FLAVOUR=${FLAVOUR:-debug}
fi
export ARCH CROSS_COMPILE TIER FLAVOUR

# The config fragments of a kernel build, merged in this order on top of
# the tier's base (kernel_base): for the QEMU guests what every guest
# needs, the board's, then the flavour's; for UML its own, then its own
# debug fragment (it lacks some of the ARM kernel's checkers).
kernel_fragments() {
	case "$TIER" in
	arm|arm64)
		echo "$TOP/configs/minimal.config $TOP/configs/$ARCH.config $TOP/configs/$FLAVOUR.config"
		;;
	uml)
		if [ -f "$TOP/configs/um-$FLAVOUR.config" ]; then
			echo "$TOP/configs/um.config $TOP/configs/um-$FLAVOUR.config"
		else
			echo "$TOP/configs/um.config $TOP/configs/$FLAVOUR.config"
		fi
		;;
	esac
}

# The configuration the fragments are merged on: allnoconfig, only what
# the guest runs, on every tier.
kernel_base() { echo allnoconfig; }

# The key of a kernel build: the Debian package version of the source and
# a hash of every input that shapes the .config.
kernel_key() {
	local pkgver hash frags
	pkgver=$(dpkg-query -W -f='${Version}' "linux-source-$KVER" 2>/dev/null) ||
		die "linux-source-$KVER is not installed (run scripts/deps.sh)"
	read -ra frags <<<"$(kernel_fragments)"
	hash=$({ kernel_base; cat "${frags[@]}"; } | sha256sum | cut -c1-12)
	echo "$KVER-$pkgver-$(tier_name)$FLAVOUR-$hash"
}

# write_intent DIR NAME=VALUE...: what the run in DIR is meant to do, and
# the kernel it boots (kver, tier, flavour), in DIR/intent, one NAME=VALUE a
# line, written before the boot. The guest reads its part on its kernel
# command line; the verdict (scripts/verdict.py) reads this file, not the
# console, which a guest that dies early never fills.
write_intent() {
	local dir=$1 kv
	shift
	for kv in "$@" "kver=$KVER" "tier=$TIER" "flavour=$FLAVOUR"; do
		[[ $kv != *$'\n'* ]] || die "a line of the run's intent has a newline: $kv"
		echo "$kv"
	done >"$dir/intent"
}

# "" for the ARM tier (its names predate the tiers), "uml-" for UML.
tier_name() { [ "$TIER" = arm ] || echo "$TIER-"; }
kernel_src() { echo "$OPP_CACHE/src/linux-source-$KVER"; }
kernel_build() { echo "$OPP_CACHE/build/$KVER-$(tier_name)$FLAVOUR"; }
# The kernel image the guest boots.
kernel_image() {
	case "$TIER" in
	arm) echo "$(kernel_build)/arch/arm/boot/zImage" ;;
	arm64) echo "$(kernel_build)/arch/arm64/boot/Image" ;;
	uml) echo "$(kernel_build)/linux" ;;
	esac
}
# manifest_tests [MANIFEST]: the "test" modules of MANIFEST (default
# selftest/manifest) that $TIER runs, in the manifest's order, once each,
# as the manifest's one reader (scripts/manifest.py) has them.
manifest_tests() {
	python3 "$TOP/scripts/manifest.py" tests "$TIER" \
		"${1:-$TOP/selftest/manifest}"
}

# manifest_run [MANIFEST]: what a check-mode run of $TIER loads (make
# check, make quick): RUN_TESTS, the manifest_tests that this tier's build
# made, on one line. Each that the build did not make is left out with a
# FAIL line, and counted in UNBUILT: a stale .ko from an earlier build must
# not stand in for it, and the run must fail.
manifest_run() {
	local m tests

	RUN_TESTS=
	UNBUILT=0
	tests=$(manifest_tests "${1:-}") || return 1
	for m in $tests; do
		if module_built "$m"; then
			RUN_TESTS+="${RUN_TESTS:+ }$m"
		else
			UNBUILT=$((UNBUILT + 1))
			echo "FAIL  $m: the manifest runs it on $TIER, and the build did not make it (selftest/Kbuild)"
		fi
	done
}

# module_built NAME: whether this tier's module build made selftest/NAME.
module_built() {
	grep -qE "(^|/)selftest/$1\.k?o$" "$(module_dir)/modules.order"
}

# Where the modules for $TIER and $FLAVOUR are built (the Makefile's
# MODDIR): this tree for the ARM debug kernel (make check), a copy of the
# sources of their own for any other kernel, so that the objects here stay
# those of make check and switching rebuilds nothing needlessly.
module_dir() {
	if [ "$TIER" = arm ] && [ "$FLAVOUR" = debug ]; then
		echo "$TOP"
	else
		echo "$OPP_MODULES/$KVER-$(tier_name)$FLAVOUR"
	fi
}
# layer_order: the library's objects, bottom layer first, as the top
# Kbuild's opp-y lines list them (their one owner; scripts/layers.sh).
layer_order() {
	awk '$1 == "opp-y" && ($2 == ":=" || $2 == "+=") {
		for (i = 3; i <= NF; i++) print $i
	}' "$TOP/Kbuild"
}

# tree_copy DIR [FROM]: the sources of FROM (default: the checkout),
# without git's data or kbuild's outputs, copied into DIR (made if
# missing): a tree to build in that leaves the checkout's objects alone,
# as a fresh clone would be. The files are listed first and tar reads
# only those: another build in the checkout (.ci/run's other lane) adds
# objects meanwhile, and tar fails on a directory that changes while it
# reads it.
tree_copy() {
	local from=${2:-$TOP}
	mkdir -p "$1"
	(cd "$from" && find . -path ./.git -prune -o ! -type d ! -name '*.o' \
		! -name '*.ko' ! -name '*.mod*' ! -name '.*.cmd' \
		! -name modules.order ! -name Module.symvers -print0) |
		tar -C "$from" --null -T - -cf - | tar -C "$1" -xf -
}

# The static busybox for the guest's architecture (scripts/deps.sh).
busybox_bin() {
	if [ "$TIER" = arm ]; then
		echo "$OPP_CACHE/busybox/bin/busybox"
	else
		echo "$OPP_CACHE/busybox-$BUSYBOX_ARCH/bin/busybox"
	fi
}

# The static bash for the guest's architecture (scripts/deps.sh): the
# kernel's cpufreq selftests are bash scripts.
bash_bin() {
	echo "$OPP_CACHE/bash-$BUSYBOX_ARCH/bin/bash"
}

# test_dtb IN OUT: IN with the device-tree tables of the opp_of_v2 suite
# (selftest/opp_of_v2.dtso) applied, as a board's firmware would hand
# them over; IN "-" starts from an empty root (User-Mode Linux has none).
test_dtb() {
	local in=$1 out=$2
	if [ "$in" = - ]; then
		echo '/dts-v1/; / { #address-cells = <1>; #size-cells = <1>; };' |
			dtc -q -I dts -O dtb -o "$out" - ||
			die "dtc failed on an empty root"
	else
		cp "$in" "$out" || die "could not copy $in to $out"
	fi
	dt_overlay "$out" "$TOP/selftest/opp_of_v2.dtso"
}

# dt_overlay DTB DTSO: DTSO compiled (with its symbols) and applied to DTB
# in place; DTB is left as it was if either fails.
dt_overlay() {
	local dtb=$1 dtso=$2 tmp
	tmp=$(mktemp -d)
	if ! dtc -@ -q -I dts -O dtb -o "$tmp/overlay.dtbo" "$dtso" ||
	   ! fdtoverlay -i "$dtb" -o "$tmp/out.dtb" "$tmp/overlay.dtbo" ||
	   ! mv "$tmp/out.dtb" "$dtb"; then
		rm -rf "$tmp"
		die "could not apply ${dtso#"$TOP"/} to $dtb"
	fi
	rm -rf "$tmp"
}

# corpus_dir: where scripts/opp-corpus.py keeps the OPP tables of every
# arm and arm64 board of $KVER's tree: one directory per Debian package
# version, extractor and dtc, so that the corpus is built once per tree
# and again only when one of them changes.
corpus_dir() {
	local pkgver hash
	pkgver=$(dpkg-query -W -f='${Version}' "linux-source-$KVER" 2>/dev/null) ||
		die "linux-source-$KVER is not installed (run scripts/deps.sh)"
	hash=$({ cat "$TOP/scripts/opp-corpus.py"; "$(corpus_dtc)" --version; } |
		sha256sum | cut -c1-12)
	echo "$OPP_CACHE/corpus/$KVER-$pkgver-$hash"
}

# corpus_dtc: the dtc the boards are compiled with: the kernel build's own,
# as the tree's recipe has it (the host's may be older than the tree's
# syntax), the host's when the kernel is not built yet.
corpus_dtc() {
	local dtc
	dtc=$(kernel_build)/scripts/dtc/dtc
	[ -x "$dtc" ] || dtc=$(command -v dtc)
	echo "$dtc"
}

# corpus_build: build $KVER's corpus into corpus_dir, unless it is there.
# One builder at a time per corpus: a second caller (two checks of one
# tree, or .ci/run's background builds) waits, then finds it built.
corpus_build() {
	local dir
	[ -d "$(kernel_src)/arch" ] ||
		die "no kernel tree $(kernel_src) to take the OPP corpus from"
	dir=$(corpus_dir)
	mkdir -p "$OPP_CACHE/corpus"
	# niced: on a shared host the corpus is built beside other work.
	(
		flock 8
		nice python3 "$TOP/scripts/opp-corpus.py" --src "$(kernel_src)" \
			--out "$dir" --dtc "$(corpus_dtc)" --jobs 2 >/dev/null
	) 8>"$dir.lock" || die "could not build the OPP corpus of $(kernel_src)"
}

# corpus_dtb DTB: the OPP tables of every arm and arm64 board of $KVER's
# tree, the overlay of scripts/opp-corpus.py (corpus_build), applied to
# DTB for the opp_of_corpus suite.
corpus_dtb() {
	local dtb=$1 dir
	corpus_build
	dir=$(corpus_dir)
	dt_overlay "$dtb" "$dir/opp_of_corpus.dtso"
	log "OPP corpus: $(head -n 1 "$dir/corpus.txt") ($dir)"
}

# board_osc DTB: the path of the vexpress-a9 oscillator extsaxiclk, an
# arm,vexpress-osc node under /dcc: "extsaxiclk" in 6.1's tree,
# "clock-controller-0" in 6.12's (named by clock-output-names in both).
board_osc() {
	local dtb=$1 n
	for n in $(fdtget -l "$dtb" /dcc 2>/dev/null); do
		[ "$(fdtget "$dtb" "/dcc/$n" compatible 2>/dev/null)" = arm,vexpress-osc ] &&
		[ "$(fdtget "$dtb" "/dcc/$n" clock-output-names 2>/dev/null)" = extsaxiclk ] &&
			{ echo "/dcc/$n"; return 0; }
	done
	die "no arm,vexpress-osc oscillator extsaxiclk under /dcc in $dtb"
}

# dt_phandle DTB NODE: the phandle of NODE, which gets the first free one
# if it has none.
dt_phandle() {
	local dtb=$1 node=$2 ph
	if ! ph=$(fdtget -t u "$dtb" "$node" phandle 2>/dev/null); then
		ph=$(dtc -q -I dtb -O dts "$dtb" |
			sed -n 's/.*phandle = <\(0x[0-9a-f]*\)>;.*/\1/p' |
			while read -r p; do echo $((p)); done | sort -n | tail -n 1)
		ph=$((${ph:-0} + 1))
		fdtput -t u "$dtb" "$node" phandle "$ph" ||
			die "could not give $node a phandle in $dtb"
	fi
	echo "$ph"
}

# dt_label DTB LABEL NODE: LABEL in the tree's __symbols__, for an
# overlay's references to resolve, as if the board's dts had labelled NODE
# and been compiled with -@; a LABEL the tree already has stays as it is.
dt_label() {
	local dtb=$1 label=$2 node=$3
	fdtget "$dtb" /__symbols__ "$label" >/dev/null 2>&1 && return 0
	dt_phandle "$dtb" "$node" >/dev/null
	fdtput -p -t s "$dtb" /__symbols__ "$label" "$node" ||
		die "could not label $node $label in $dtb"
}

# board_clock_dtb DTB: the vexpress-a9 oscillator that the opp_board_clock
# suite (selftest/opp_board_clock_test.c) programs, and a node of its own,
# /opp-board-clock, whose clocks property points at it. The oscillator is
# /dcc/extsaxiclk, the daughterboard's external AXI slave clock (30 to
# 50 MHz): no node's clocks names it, so nothing in the guest runs from
# it, and QEMU only keeps the value written (a daughterboard oscillator of
# arm_sysctl that no emulated device reads). Not clcdclk, the display's
# pixel clock, nor tcrefclk, the peripherals' bus clock, nor the
# motherboard's oscclk2, the UARTs' and timers' reference. The board's
# tree gives extsaxiclk no phandle: it gets the first free one here.
board_clock_dtb() {
	local dtb=$1 osc ph
	osc=$(board_osc "$dtb")
	ph=$(dt_phandle "$dtb" "$osc")
	if ! fdtput -c "$dtb" /opp-board-clock ||
	   ! fdtput -t s "$dtb" /opp-board-clock compatible opp,board-clock-test ||
	   ! fdtput -t u "$dtb" /opp-board-clock clocks "$ph"; then
		die "could not add /opp-board-clock to $dtb"
	fi
}

# cluster_dtb DTB: the cpufreq sample's two clusters
# (samples/opp_cpufreq_clusters.dtso: CPUs 0-1 and 2-3 on two opp-shared
# operating-points-v2 tables) applied to DTB; on vexpress-a9, cluster 0's
# CPUs get the oscillator of board_clock_dtb (run it first) as their
# clock: the sample programs the board's own clock through it. Cluster 1's
# clock, and both rails, are test providers (selftest/
# opp_cluster_providers.c), which also give cluster 0 a clock on a board
# without that oscillator. The overlay's cooling maps name the CPU nodes by
# their labels cpu0 to cpu3, which a board's tree has and the guests' lack.
cluster_dtb() {
	local dtb=$1 ph cpu
	for cpu in 0 1 2 3; do
		dt_label "$dtb" "cpu$cpu" "/cpus/cpu@$cpu"
	done
	dt_overlay "$dtb" "$TOP/samples/opp_cpufreq_clusters.dtso"
	[ "$TIER" = arm ] || return 0
	ph=$(fdtget -t u "$dtb" "$(board_osc "$dtb")" phandle) ||
		die "the board oscillator has no phandle in $dtb"
	for cpu in 0 1; do
		fdtput -t u "$dtb" "/cpus/cpu@$cpu" clocks "$ph" ||
			die "could not give cpu@$cpu its clock in $dtb"
	done
}
