#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The cpufreq story of the guest, told from user space, with opp.ko and
# opp_cpufreq.ko loaded. The OPPs are those the guest booted with: read
# here from CPU0's device tree node (scripts/run-qemu.sh writes them), not
# written down again.
#
#   cpufreq-scenario demo          show it, step by step, on stdout
#   cpufreq-scenario check [SEED]  assert it: one "check NAME ok|failed
#                                  REASON" line per step on stdout, for the
#                                  verdict; SEED (the host's, from the
#                                  kernel command line) drives the fuzz of
#                                  the thermal trigger, so that a failure
#                                  replays; without one, the time does
#   cpufreq-scenario thermal-hot   cluster 1's zone past its trip, the
#                                  policy throttled: the state the sample
#                                  is then unloaded in (a check line)
#   cpufreq-scenario thermal-gone  once the sample is unloaded: its cooling
#                                  devices gone from the zones, the zones
#                                  cooled back (a check line)
#
# Notes (the seed, the fuzz inputs' digest, how long ondemand took) go to
# stderr. Exits 0 once every step has run (failed steps are reported, not
# fatal); any other exit means the scenario stopped half-way.
#
# The steps live in /lib/opp-scenario (initramfs/scenario in the tree),
# sourced here: lib.sh, what every step uses, then one file a step, each
# defining functions only (check_* for check, demo_* for demo). This file
# runs them, in the story's order, for the mode it is given.

SCENARIO_LIB=/lib/opp-scenario
# shellcheck source=initramfs/scenario/lib.sh
. "$SCENARIO_LIB/lib.sh"
# shellcheck source=initramfs/scenario/tables.sh
. "$SCENARIO_LIB/tables.sh"
# shellcheck source=initramfs/scenario/em.sh
. "$SCENARIO_LIB/em.sh"
# shellcheck source=initramfs/scenario/governors.sh
. "$SCENARIO_LIB/governors.sh"
# shellcheck source=initramfs/scenario/cap.sh
. "$SCENARIO_LIB/cap.sh"
# shellcheck source=initramfs/scenario/fuzz.sh
. "$SCENARIO_LIB/fuzz.sh"
# shellcheck source=initramfs/scenario/boost.sh
. "$SCENARIO_LIB/boost.sh"
# shellcheck source=initramfs/scenario/failure.sh
. "$SCENARIO_LIB/failure.sh"
# shellcheck source=initramfs/scenario/thermal.sh
. "$SCENARIO_LIB/thermal.sh"
# shellcheck source=initramfs/scenario/suspend.sh
. "$SCENARIO_LIB/suspend.sh"

# No spinner yet (spin_start), none left behind; no cooling state
# followed yet (wait_max).
spin=
trap spin_stop EXIT
maxwait=0

demo() {
	demo_tables
	use_cluster 0
	demo_governors
	demo_ondemand
	use_cluster 2
	set_topall
	demo_cap
	demo_boost
	demo_energy_model
	demo_thermal
	demo_suspend
	demo_stats
}

check() {
	mkdir -p "$TMP"
	note "seed $SEED"
	check_tables || return 0
	check_em
	check_policies
	check_cluster0
	check_cluster1
	check_thermal
	check_suspend
	rm -rf "$TMP"
}

# The first cluster: its table; the governors, the thermal cap against
# them and against a user's requests; the trigger's input, fuzzed; ondemand.
check_cluster0() {
	use_cluster 0
	check_initial_table
	check_trigger
	check_powersave
	setspeed_each cpufreq_userspace_setspeed
	check_cap_and_governors
	check_cap_and_requests
	check_trigger_table_freqs
	check_fuzz
	check_ondemand_follows_load
	check_ondemand_busy_follows_caps
}

# The second cluster: its own table, clock and rail; a cap on it alone;
# boost; a step that fails half-way.
check_cluster1() {
	use_cluster 2
	set_topall
	check_cluster1_table
	check_cluster1_stats
	check_cluster1_cap_alone
	check_boost_on_and_off
	check_cap_outlives_boost_and_hotplug
	check_failed_step
}

case "$1" in
demo)
	mkdir -p "$TMP"
	demo
	;;
check)
	SEED=${2:-$(date +%s)}
	check
	;;
thermal-hot) thermal_hot ;;
thermal-gone) thermal_gone ;;
*) echo "usage: $0 demo | check [SEED] | thermal-hot | thermal-gone" >&2; exit 2 ;;
esac
