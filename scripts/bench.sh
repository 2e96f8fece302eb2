#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: boot the bench kernel (no debug option, CONFIG_PM_OPP=y) with
# opp.ko and bench/opp_bench.ko, which measures this library against the
# kernel's own OPP core in the same boot (with the test helpers it calls,
# selftest/opp_test_helpers.ko, loaded before it). TIER=uml (make bench TIER=uml)
# runs it on User-Mode Linux at native speed instead of the emulated ARM
# guest. Prints the table of figures and the bench's targets, and leaves
# in $OPP_RUNS/bench (bench-uml for UML):
#   results.csv   group,op,param,ours,mainline,ratio,unit
#   table.md      the same as a Markdown table
#   targets.md    each target: measured, met or missed
#   lookup.png    ns per lookup against table size, both libraries
#   scaling.png   lookups/s against reader count, with and without writer
#   channel.log, console.log   the guest's report and console
#
#   bench.sh [--record] [--from DIR]
#     --record     also copy them to Documentation/bench (bench-uml)
#     --from DIR   no boot: redo the table and plots of the run in DIR
#
# Ends with "N passed, N failed": fails if the bench did not complete, the
# two libraries disagreed on a lookup, a target lacks its figures or the
# kernel printed a splat, or if the judge of those passes a copy of the
# run with each fault put in (its self-check); a missed target is
# reported, not fatal (the figures depend on the host).
# OPP_BENCH_ARGS passes module parameters (runs=, min_run_us=, scale_ms=,
# max_opps=, max_devs=, writer_us=; see bench/opp_bench_main.c).
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

record=0
from=
while [ $# -gt 0 ]; do
	case "$1" in
	--record) record=1; shift ;;
	--from) from=$2; shift 2 ;;
	*) die "unknown argument $1" ;;
	esac
done
export FLAVOUR=bench

# gnuplot too (scripts/deps.sh, for the bench flavour).
"$TOP/scripts/deps.sh"

# The host's load, before and after: other guests or builds running on
# the host's cores skew the timings, the read scaling most.
host_info() {
	printf 'opp-bench-info,host-%s,%s cores, load %s\n' "$1" "$(nproc)" \
		"$(cut -d' ' -f1-3 /proc/loadavg)"
}

# Where the figures come from, for the plots and the recorded files.
if [ "$TIER" = uml ]; then
	name=bench-uml
	where="User-Mode Linux on x86-64, native speed, 1 CPU"
else
	name=bench
	where="QEMU TCG: compare the lines, not the ns"
fi

if [ -n "$from" ]; then
	out=$from
	[ -f "$out/channel.log" ] || die "no channel.log in $out"
else
	"$TOP/scripts/build-kernel.sh" >/dev/null
	make -s -C "$TOP" modules FLAVOUR=bench OPP_BENCH_ONLY=y >/dev/null
	out=$OPP_RUNS/$name
	rm -rf "$out"
	mkdir -p "$out"
	host_info before >"$out/host.log"
	echo "opp-bench-info,tier,$TIER" >>"$out/host.log"
	args=()
	[ -n "${OPP_BENCH_ARGS:-}" ] && args=(--test-args "$OPP_BENCH_ARGS")
	"$TOP/scripts/run-qemu.sh" --mode bench --out "$out" --timeout 600 \
		"${args[@]}"
	host_info after >>"$out/host.log"
fi
tr -d '\r' <"$out/channel.log" >"$out/report.log"
[ -f "$out/host.log" ] && cat "$out/host.log" >>"$out/report.log"
if ! grep -q '^opp-bench-end' "$out/report.log"; then
	tail -n 20 "$out/report.log" >&2
	grep -E 'opp_bench|BUG|WARNING|Oops' "$out/console.log" | tail -n 10 >&2 || true
	die "the bench did not complete (see $out)"
fi

{
	echo "group,op,param,ours,mainline,ratio,unit"
	sed -n 's/^opp-bench,//p' "$out/report.log"
} >"$out/results.csv"

# The table, for the terminal and as Markdown.
awk -F, 'NR > 1 {
	printf "%-8s %-16s %-11s %14s %14s %8s  %s\n", $1, $2, $3, $4, $5, $6, $7
}' "$out/results.csv" >"$out/table.txt"
awk -F, 'NR == 1 { print "| " $1 " | " $2 " | " $3 " | " $4 " | " $5 " | ratio ours/mainline | " $7 " |";
		   print "|---|---|---|--:|--:|--:|---|"; next }
	{ print "| " $1 " | " $2 " | " $3 " | " $4 " | " $5 " | " $6 " | " $7 " |" }' \
	"$out/results.csv" >"$out/table.md"

# The bench's targets (what the library set out to reach against the
# kernel's OPP core), from the figures.
awk -F, '
function has(key) { return (key, "o") in val }
function v(key, col) { if (!((key, col) in val)) { missing = 1; return 0 } return val[key, col] }
function row(name, got, ok) {
	printf "| %s | %s | %s |\n", name, got, ok ? "met" : "**missed**"
}
# whole(GROUP,OP): the key of a row whose parameter is a count of the run.
function whole(go) { return go "," param[go] }
NR > 1 { key = $1 "," $2 "," $3; val[key, "o"] = $4; val[key, "m"] = $5; param[$1 "," $2] = $3 }
END {
	print "| target | measured | verdict |"
	print "|---|---|---|"
	o = v("lookup,ceil,8", "o"); m = v("lookup,ceil,8", "m")
	row("ceil on 8 OPPs >= 10x faster than mainline",
	    sprintf("%.1fx (%s vs %s ns)", m / o, o, m), m / o >= 10)
	if (has("handle,ceil,8")) {
		o = v("handle,ceil,8", "o"); m = v("handle,ceil,8", "m")
		row("the same through a table handle (opp_table_get())",
		    sprintf("%.1fx (%s vs %s ns)", m / o, o, m), m / o >= 10)
	}
	if (has("inline,ceil,8")) {
		o = v("inline,ceil,8", "o"); m = v("inline,ceil,8", "m")
		row("the same through a handle, inline (opp_table_find_freq_ceil_fast())",
		    sprintf("%.1fx (%s vs %s ns)", m / o, o, m), m / o >= 10)
	}

	worst = 0; s = ""
	split("ceil floor exact", ops, " ")
	for (i = 1; i <= 3; i++) {
		r = v("lookup," ops[i] ",1024", "o") / v("lookup," ops[i] ",8", "o")
		rm = v("lookup," ops[i] ",1024", "m") / v("lookup," ops[i] ",8", "m")
		s = s sprintf("%s %.2fx (mainline %.1fx); ", ops[i], r, rm)
		if (r > worst) worst = r
	}
	row("1024-OPP lookup <= 2x an 8-OPP one", s, worst <= 2)

	worst = 0; s = ""
	for (i = 1; i <= 3; i++) {
		one = v("devices," ops[i] ",1", "o")
		f = v("devices," ops[i] ",1024-first", "o") / one
		l = v("devices," ops[i] ",1024-last", "o") / one
		mf = v("devices," ops[i] ",1024-first", "m") / v("devices," ops[i] ",1", "m")
		s = s sprintf("%s %.2fx/%.2fx (mainline %.1fx); ", ops[i], f, l, mf)
		if (f > worst) worst = f
		if (l > worst) worst = l
	}
	row("1024 devices: lookup <= 1.5x the 1-device cost (first/last registered)",
	    s, worst <= 1.5)

	o = v("update,disable+enable,8", "o"); m = v("update,disable+enable,8", "m")
	gp = v("update,synchronize_rcu,-", "o")
	if (gp > 0)
		row("disable+enable at least as fast as mainline, no grace period",
		    sprintf("%s vs %s ns (%.2fx); a grace period takes %.0f ns, %.0fx the pair",
			    o, m, o / m, gp, gp / o), o <= m && gp / o >= 10)
	else
		row("disable+enable at least as fast as mainline, no grace period",
		    sprintf("%s vs %s ns (%.2fx); one CPU: a grace period costs nothing here",
			    o, m, o / m), o <= m)

	if (has("scaling,readers+writer,2")) {
		r1 = v("scaling,readers+writer,1", "o"); r2 = v("scaling,readers+writer,2", "o")
		m1 = v("scaling,readers+writer,1", "m"); m2 = v("scaling,readers+writer,2", "m")
		row("2 readers >= 1.8x the lookups/s of 1 while a writer toggles",
		    sprintf("%.2fx (mainline %.2fx)", r2 / r1, m2 / m1), r2 / r1 >= 1.8)
	} else {
		print "| 2 readers >= 1.8x the lookups/s of 1 while a writer toggles | not measured: one CPU | n/a |"
	}

	ob = v("memory,opp-object,8", "o"); sb = v("memory,slab-per-opp,8", "o")
	row("<= 32 bytes per OPP (32-bit ARM)",
	    sprintf("%s B allocated, %s B of slab pages (mainline %s / %s B + %s B debugfs)",
		    ob, sb, v("memory,opp-object,8", "m"), v("memory,slab-per-opp,8", "m"),
		    v("memory,debugfs-per-opp,8", "m")), ob <= 32 && sb <= 32)

	if (("corpus,of_add_table") in param) {
		k = whole("corpus,of_add_table"); o = v(k, "o"); m = v(k, "m")
		row("reading the kernel tree'"'"'s tables no slower than the kernel'"'"'s core",
		    sprintf("%s vs %s us for %s tables (%.2fx)", o, m, param["corpus,of_add_table"], o / m),
		    o <= m)
		k = whole("memory,corpus-opp-object"); o = v(k, "o"); m = v(k, "m")
		row("their bytes allocated per OPP no more than the kernel'"'"'s",
		    sprintf("%s vs %s B over %s OPPs", o, m, param["memory,corpus-opp-object"]),
		    o <= m)
	}

	o = v("lookup,ceil,8", "o"); fl = v("floor,rcu+call,-", "o")
	row("8-OPP lookup <= 3x the empty-RCU floor",
	    sprintf("%.2fx (%s vs %s ns)", o / fl, o, fl), o / fl <= 3)
	if (has("handle,ceil,8")) {
		o = v("handle,ceil,8", "o")
		row("the same through a table handle",
		    sprintf("%.2fx (%s vs %s ns)", o / fl, o, fl), o / fl <= 3)
	}
	if (has("inline,ceil,8")) {
		o = v("inline,ceil,8", "o")
		row("the same through a handle, inline",
		    sprintf("%.2fx (%s vs %s ns)", o / fl, o, fl), o / fl <= 3)
	}
	if (missing)
		print "| (some figures are missing from the run) | | **missed** |"
}' "$out/results.csv" >"$out/targets.md"

# The plots.
awk -F, '$1 == "lookup" { o[$3, $2] = $4; m[$3, $2] = $5; size[$3] = 1 }
	END {
		for (n in size)
			print n, o[n, "ceil"], m[n, "ceil"], o[n, "floor"],
			      m[n, "floor"], o[n, "exact"], m[n, "exact"]
	}' "$out/results.csv" | sort -n >"$out/lookup.dat"
awk -F, '$1 == "scaling" && $2 ~ /^readers/ {
		w = $2 == "readers" ? 0 : 1; o[$3, w] = $4; m[$3, w] = $5; nr[$3] = 1
	}
	END {
		for (n in nr)
			print n, o[n, 0], m[n, 0], o[n, 1], m[n, 1]
	}' "$out/results.csv" | sort -n >"$out/scaling.dat"
gnuplot <<EOF
set terminal png size 800,520
set grid
set key top left
set output "$out/lookup.png"
set title "OPP lookup cost against table size ($where)"
set logscale xy 2
set xlabel "OPPs in the table"
set ylabel "ns per lookup"
set xtics (4, 8, 16, 64, 256, 1024)
plot "$out/lookup.dat" using 1:2 with linespoints lw 2 title "ours ceil", \
     "" using 1:4 with linespoints lw 2 title "ours floor", \
     "" using 1:6 with linespoints lw 2 title "ours exact", \
     "" using 1:3 with linespoints dt 2 title "mainline ceil", \
     "" using 1:5 with linespoints dt 2 title "mainline floor", \
     "" using 1:7 with linespoints dt 2 title "mainline exact"
set output "$out/scaling.png"
set title "Aggregate lookups/s against reader kthreads (8-OPP table, ceil)"
unset logscale
set logscale y 10
set xlabel "reader kthreads, one per CPU"
set ylabel "lookups/s"
set xtics (1, 2, 4)
set xrange [0.8:4.2]
plot "$out/scaling.dat" using 1:2 with linespoints lw 2 title "ours", \
     "" using 1:4 with linespoints lw 2 title "ours, writer toggling", \
     "" using 1:3 with linespoints dt 2 title "mainline", \
     "" using 1:5 with linespoints dt 2 title "mainline, writer toggling"
EOF

echo
echo "--- ours against the kernel's OPP core ($out/results.csv) ---"
echo "ratio = ours/mainline: below 1 is better for ns and bytes, above 1 for rates"
printf '%-8s %-16s %-11s %14s %14s %8s  %s\n' group op param ours mainline ratio unit
cat "$out/table.txt"
echo
sed -n 's/^opp-bench-check,//p; s/^opp-bench-info,//p' "$out/report.log"
echo
cat "$out/targets.md"
echo
echo "plots: $out/lookup.png $out/scaling.png"

if [ $record -eq 1 ]; then
	doc=$TOP/Documentation/$name
	mkdir -p "$doc"
	cp "$out/results.csv" "$out/table.md" "$out/targets.md" \
		"$out/lookup.png" "$out/scaling.png" "$doc/"
	grep '^opp-bench-info' "$out/report.log" >"$doc/info.csv"
	echo "recorded in $doc"
fi

# What a run must show, counted: CI runs make bench TIER=uml (.ci/run),
# and a row that stops building or running on a tier must fail it.
passed=0
failed=0
expect() { counted bench "$1" "$2"; }
# found / absent PATTERN FILE: yes or no, as an extended regular
# expression matches in FILE or not.
found() { if grep -qE -- "$1" "$2"; then echo yes; else echo no; fi; }
absent() { if grep -qE -- "$1" "$2"; then echo no; else echo yes; fi; }
# judge DIR: the checks of a run's report, targets and console, one
# "yes" or "no" a line, in the order of the names below.
judge() {
	found '^opp-bench-check,agree,ok' "$1/report.log"
	absent 'some figures are missing' "$1/targets.md"
	absent 'BUG:|WARNING:|Oops|Kernel panic|Call trace:' "$1/console.log"
}
names=("the two libraries agreed on every lookup"
       "every target has its figures"
       "the kernel printed no splat (BUG, WARNING, Oops, panic)")
mapfile -t got < <(judge "$out")
for i in "${!names[@]}"; do
	expect "${names[$i]}" "${got[$i]:-no}"
done
# The judge's canary: a copy of this run with each fault put in (the
# libraries disagree, a target's figures missing, a kernel WARNING)
# must fail each check.
canary=$(mktemp -d)
cp "$out/report.log" "$out/targets.md" "$out/console.log" "$canary/"
sed -i 's/^opp-bench-check,agree,ok/opp-bench-check,agree,differ/' "$canary/report.log"
echo "| (some figures are missing from the run) | | **missed** |" >>"$canary/targets.md"
echo "[    1.000000] WARNING: CPU: 0 PID: 1 at opp_bench_canary" >>"$canary/console.log"
mapfile -t got < <(judge "$canary")
rm -rf "$canary"
for i in "${!names[@]}"; do
	[ "${got[$i]:-}" = no ] && r=yes || r=no
	expect "self-check: \"${names[$i]}\" fails on a run with that fault put in" "$r"
done
closing_line
[ "$failed" -eq 0 ]
