#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make lint: the static gates, each one counted check.
#
#   checkpatch  --strict on every .c and .h of the tree
#   sparse      make C=2 (every source) against the cached kernel build
#   W=1         the modules build with the extra warnings
#   layers      each of the library's objects calls only those below it
#               (Kbuild's order, scripts/layers.sh), with its canary
#   kernel-doc  every .c and .h, with the warnings for missing descriptions
#   shell       shellcheck -x on every shell script (*.sh or a sh/bash #! line)
#   rst         every .rst, rendered by scripts/rst2html-kdoc.py
#
# Files are found by walking the tree, so new ones are linted without
# being listed here. A gate passes only with zero findings; its findings
# are printed. Uses the unpacked tree and the build of $KVER.
# Ends with "N passed, N failed"; exits non-zero on any finding.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

src=$(kernel_src)
build=$(kernel_build)
[ -x "$src/scripts/checkpatch.pl" ] ||
	die "no unpacked linux-source-$KVER (run scripts/build-kernel.sh)"
[ -x "$build/scripts/mod/modpost" ] ||
	die "no prepared kernel tree in $build (run scripts/build-kernel.sh)"

cd "$TOP"
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# files FIND-PREDICATES...: the tree's files that match, relative to the
# top, skipping git's data and kbuild's generated sources.
files() {
	find . -path ./.git -prune -o -type f ! -name '*.mod.c' \
		\( "$@" \) -print | sed 's|^\./||' | sort
}


mapfile -t csrc < <(files -name '*.c' -o -name '*.h')
[ ${#csrc[@]} -gt 0 ] || die "no C source found under $TOP"

# checkpatch: --terse gives one line per finding (ERROR, WARNING, CHECK).
# compat.h exists to hold the LINUX_VERSION_CODE tests that checkpatch
# rightly forbids in code merged into one kernel: there, and only there,
# that one warning is allowed.
: >"$tmp/checkpatch"
for f in "${csrc[@]}"; do
	ignore=()
	[ "$f" = compat.h ] && ignore=(--ignore LINUX_VERSION_CODE)
	"$src/scripts/checkpatch.pl" --strict --no-tree --terse "${ignore[@]}" \
		-f "$f" | grep -E ': (ERROR|WARNING|CHECK):' >>"$tmp/checkpatch" ||
		true
done
gate lint checkpatch "${#csrc[@]} files, no error, warning or check" \
	"$tmp/checkpatch"

# The modules are built in a copy of the tree, so that every file is
# compiled (and the objects of the tree are left alone). What kbuild
# prints besides its progress lines is a finding.
tree_copy "$tmp/tree"
kbuild() {
	kernel_make -C "$build" M="$tmp/tree" ARCH="$ARCH" \
		CROSS_COMPILE="$CROSS_COMPILE" "${symvers[@]}" "$@" modules 2>&1 ||
		echo "make failed"
}
noise='^ +(CC|CHECK|LD|AR|MODPOST|CC \[M\]|LD \[M\]) |^make(\[[0-9]+\])?: (Entering|Leaving) directory'
# A tree that was only prepared (OPP_KERNEL=prepare) has no
# Module.symvers: modpost cannot know what the kernel exports and calls
# every kernel symbol undefined. There it is told to warn, and its
# unresolved-symbol lines are not findings; the compile, W=1 and sparse
# still are. Only a built kernel (make check) checks the symbols.
symvers=()
if [ ! -f "$build/Module.symvers" ]; then
	symvers=(KBUILD_MODPOST_WARN=1)
	noise+='|^WARNING: Module\.symvers is missing\.$|^ {9}(Modules may not|You may get|You can set|if you want to)'
	noise+='|^WARNING: modpost: ("[^"]+" \[[^]]+\] undefined!|suppressed [0-9]+ unresolved symbol warnings)'
fi
findings() { { grep -vE "$noise" || true; } | sed "s|$tmp/tree/||g"; }

kbuild W=1 >"$tmp/w1.log"
n=$(grep -cE '^ +CC \[M\] ' "$tmp/w1.log" || true)
findings <"$tmp/w1.log" >"$tmp/w1"
[ "$n" -gt 0 ] || echo "no object was compiled" >>"$tmp/w1"
gate lint "W=1 build" "$n objects against $KVER, no warning" "$tmp/w1"

# Layers: the objects just built, against Kbuild's order. Its canary: the
# same objects in the reverse order must show calls going up, or the
# check could pass by finding nothing at all.
mapfile -t layers < <(layer_order)
"$TOP/scripts/layers.sh" "$tmp/tree" >"$tmp/layers" 2>&1 || true
gate lint layers "${#layers[@]} objects, each calls only those below it" \
	"$tmp/layers"
mapfile -t reversed < <(printf '%s\n' "${layers[@]}" | tac)
if "$TOP/scripts/layers.sh" "$tmp/tree" "${reversed[@]}" >"$tmp/upside" 2>&1 ||
	! grep -q 'a layer above it$' "$tmp/upside"; then
	counted lint "layers canary: the reverse order is not refused" no
	sed 's/^/      /' "$tmp/upside"
else
	counted lint "layers canary: the reverse order shows $(wc -l <"$tmp/upside") calls going up" yes
fi

# C=2 checks every source whether or not it is rebuilt; with the same W=1
# nothing is recompiled, so what it prints is sparse's alone.
kbuild W=1 C=2 >"$tmp/sparse.log"
n=$(grep -cE '^ +CHECK ' "$tmp/sparse.log" || true)
findings <"$tmp/sparse.log" >"$tmp/sparse"
[ "$n" -gt 0 ] || echo "sparse checked no file" >>"$tmp/sparse"
gate lint sparse "$n files against $KVER, no warning" "$tmp/sparse"

# kernel-doc: 6.1 reports missing descriptions with -v (and prints "info"
# lines then), later trees with -Wall.
kdoc=("$src/scripts/kernel-doc" -none)
if grep -q -- '-Wall' "$src/scripts/kernel-doc"; then
	kdoc+=(-Wall)
else
	kdoc+=(-v)
fi
: >"$tmp/kdoc"
ndoc=0
for f in "${csrc[@]}"; do
	grep -q '^/\*\*' "$f" || continue
	ndoc=$((ndoc + 1))
	"${kdoc[@]}" "$f" 2>&1 | grep -v ': info: ' >>"$tmp/kdoc" || true
done
[ "$ndoc" -gt 0 ] || echo "no file with kernel-doc found" >>"$tmp/kdoc"
gate lint kernel-doc "$ndoc files with kernel-doc, no warning" "$tmp/kdoc"

# Shell scripts: by name or by their #! line.
mapfile -t shs < <(files -true)
sh=()
for f in "${shs[@]}"; do
	case "$f" in
	*.sh) sh+=("$f") ;;
	*) head -c 64 "$f" | head -n 1 | grep -qE '^#!.*/(env +)?(ba|da)?sh\b' &&
		sh+=("$f") ;;
	esac
done
: >"$tmp/shellcheck"
if [ ${#sh[@]} -eq 0 ]; then
	echo "no shell script found" >"$tmp/shellcheck"
else
	shellcheck -x -f gcc "${sh[@]}" >"$tmp/shellcheck" 2>&1 || true
fi
gate lint shell "${#sh[@]} scripts, no finding" "$tmp/shellcheck"

# reStructuredText: docutils with the kernel-doc directive (see the script).
mapfile -t rst < <(files -name '*.rst')
: >"$tmp/rst"
for f in "${rst[@]}"; do
	KERNEL_SRC=$src python3 "$TOP/scripts/rst2html-kdoc.py" "$f" \
		"$tmp/out.html" >>"$tmp/rst" 2>&1 || true
done
[ ${#rst[@]} -gt 0 ] || echo "no .rst document found" >>"$tmp/rst"
gate lint rst "${#rst[@]} documents render, no warning" "$tmp/rst"

closing_line
[ "$failed" -eq 0 ]
