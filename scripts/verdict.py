#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# Judge a guest run from its console and its report channel.
#
#   verdict.py [--tests "MOD..."] [--manifest FILE] [--skip-ok "S.C..."] DIR
#
# What the run was meant to do is in DIR/intent, written by the runner
# (run-qemu.sh) before it booted the guest: its mode, test modules,
# scenarios and load/unload cycles, and the kernel it booted
# (KVER, TIER, FLAVOUR), whose tree scripts/common.sh finds. A directory
# without one is not a run of this harness. --tests replaces the intent's
# modules. What the run must show is in the manifest (selftest/manifest,
# read by manifest.py):
# the KUnit suites of each module, the cases a tier's kernel cannot run,
# and the harness checks. How many cases a suite has is its KTAP plan's.
#
# A case whose skip the manifest excuses on the run's tier (User-Mode
# Linux has one CPU and no preemption; the SMP guests, no Tiny RCU), or
# that --skip-ok (SUITE.CASE...) names besides, is listed as skipped,
# neither passed nor failed; any other skip fails.
#
# KTAP: each suite's lines are cut from the console and parsed by the
# kernel's own parser, tools/testing/kunit/kunit.py parse --json, of the
# run's own kernel tree; nothing here reads a KTAP result line. In 6.1 a
# suite's debugfs results keep only the last parameter of a parameterised
# case, the console has them all. Each suite's document, the parser's
# output and its JSON are left in DIR/verdict.
#
# Passes only if the guest finished; every suite of every module of the run
# ran, parsed cleanly, reported as many cases as its KTAP plan announced
# and all passed (a skipped case counts as failed); no suite ran that the
# manifest does not expect; every module and the library loaded and
# unloaded, and so did the manifest's helper modules; every required
# harness check and every other check the guest reported passed;
# kmemleak scanned and found nothing; and the console shows no kernel
# splat. After the guest's "power-off" marker only the
# board's own power-off report is excused: "BUG: Invalid wait context",
# which the 6.1 vexpress power-off path prints on every debug boot (a mutex
# under an atomic notifier in the board's code, not in a module). Prints a
# summary and the closing line "N passed, N failed", counting each KTAP
# result and each harness check; exits 1 on failure, after an excerpt of
# the console around what went wrong.
#
# A run the harness stopped at its timeout fails "guest finished"; when the
# harness left where the guest was stuck in DIR/stacks.log (UML: every
# task's stack; QEMU: each vCPU's named PC), the line says so.
#
# Besides KTAP, the guest may report any check of its own (a user-space
# scenario, say) as a line "check NAME ok" or "check NAME failed REASON".
# The "torture:" diagnostic lines of a suite (opp_torture_test's figures: ops
# and ops/s per reader, hard-interrupt lookups, updaters, violations) are
# printed in the summary.

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field

from manifest import read as read_manifest

SCRIPTS = os.path.dirname(os.path.abspath(__file__))

# What the verdict needs of DIR/intent; the runners write more (the seed,
# the test arguments) for whoever replays the run.
INTENT_KEYS = ("mode", "tests", "scenarios", "lifecycle", "kver", "tier",
               "flavour")

# Splats: NAME, REGEX; the first that matches names a console line.
# kmemleak's "N new suspected memory leaks" is not one: the guest sends
# kmemleak's report after its last scan, and that report is the judge
# (the boot's own leaks, forgotten before the tests, print it too).
SPLATS = [(name, re.compile(regex)) for name, regex in (
    ("nonstatic-key", r"INFO: trying to register non-static key"),
    ("lockdep-circular", r"possible circular locking dependency"),
    ("lockdep-inconsistent", r"inconsistent lock state"),
    ("lockdep", r"possible recursive locking|Invalid wait context|"
     r"bad unlock balance|suspicious RCU usage|"
     r"lock held when returning to user space|held lock freed|"
     r"irq lock inversion|turning off the locking correctness validator"),
    ("kasan", r"KASAN"),
    ("kcsan", r"BUG: KCSAN:"),
    ("ubsan", r"UBSAN:"),
    ("rcu-expedited-stall", r"detected expedited stalls"),
    ("rcu-stall", r"detected stalls?|self-detected stall"),
    ("hung-task", r"blocked for more than [0-9]+ seconds"),
    ("soft-lockup", r"soft lockup|hard LOCKUP"),
    ("kmemleak-disabled",
     r"Kernel memory leak detector disabled|kmemleak: .*disabled"),
    ("kmemleak", r"kmemleak: (Cannot allocate|Memory pool empty|"
     r".*unknown object|Found object by alias|Scan area larger)"),
    ("sleep-in-atomic",
     r"sleeping function called from invalid context|scheduling while atomic"),
    ("debugobjects", r"ODEBUG:"),
    ("list-corruption", r"list_(add|del) corruption"),
    ("divzero", r"Division by zero in kernel"),
    ("printk-dropped", r"printk messages dropped"),
    ("oops", r"Oops|Unable to handle kernel|Internal error:|kernel BUG"),
    ("panic", r"Kernel panic"),
    ("bug", r"BUG:"),
    ("warning", r"WARNING:"),
    ("trace", r"end trace"),
)]
# After the guest's power-off marker, the board's own report (see above) is
# excused, and nothing else.
POWER_OFF_NOISE = re.compile(r"BUG: Invalid wait context")

# A kmemleak report of an object the kernel allocated while booting, in
# PID 1 before it ran /init ("swapper"): nothing of ours had loaded yet.
# The guest forgets the boot's reports (initramfs/init); one that a stale
# pointer hid then is reported later (on UML, a device-tree node's sysfs
# name, once in two runs).
BOOT_LEAK = re.compile(r'^\s*comm "swapper(/\d+)?", pid 1,')
# What the console excerpt of a failed run is centred on.
EXCERPT = re.compile("|".join(regex.pattern for _, regex in SPLATS) +
                     r"|not ok|EXPECTATION FAILED|ASSERTION FAILED")


def fatal(why):
    sys.exit(f"verdict: {why}")


class Tally:
    """The run's passed and failed checks; each failure is printed with
    its reason as it is found, which makes the order of the summary."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, ok, why=""):
        if ok:
            self.passed += 1
        else:
            self.fail(name, why)

    def fail(self, name, why=""):
        self.failed += 1
        print(f"FAIL  {name}: {why}" if why else f"FAIL  {name}")


def lines_of(path):
    """PATH's lines, carriage returns dropped; bytes that are not UTF-8
    go through unchanged."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "surrogateescape").replace("\r", "")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def words(line):
    """LINE's words, separated by blanks as awk separates them."""
    line = line.strip(" \t")
    return re.split(r"[ \t]+", line) if line else []


def read_intent(run):
    """DIR/intent: NAME=VALUE lines, as the runner wrote them."""
    path = os.path.join(run, "intent")
    if not os.path.isfile(path):
        fatal(f"no {path}: not a run of this harness")
    intent = {}
    for n, line in enumerate(lines_of(path), 1):
        name, eq, value = line.partition("=")
        if not eq:
            fatal(f"{path} line {n}: not NAME=VALUE: \"{line}\"")
        intent[name] = value
    for name in INTENT_KEYS:
        if name not in intent:
            fatal(f"{path} has no {name}=")
    return intent


def common_facts(intent):
    """The tree's top and the run's kernel tree, as scripts/common.sh has
    them for the kernel the run booted."""
    env = dict(os.environ, KVER=intent["kver"], TIER=intent["tier"],
               FLAVOUR=intent["flavour"])
    # The run's tier names its guest; the caller's ARCH names the caller's.
    env.pop("ARCH", None)
    got = subprocess.run(["bash", "-c", '. "$1" && echo "$TOP" && kernel_src',
                          "verdict", os.path.join(SCRIPTS, "common.sh")],
                         env=env, stdout=subprocess.PIPE, text=True)
    if got.returncode != 0:
        sys.exit(1)
    top, src = got.stdout.split("\n")[:2]
    return top, src


def cut_suites(console):
    """Each suite's KTAP from the console, as a document of its own as
    debugfs would show it: "KTAP version 1", "1..1", the suite, "ok 1
    SUITE". A module's suite is numbered in the order of the boot: it is
    renumbered 1. A suite that runs again is SUITE~2, SUITE~3..."""
    docs = []
    times = {}
    doc = end = None
    prev = None
    for line in console:
        if prev == "    KTAP version 1" and line.startswith("    # Subtest: "):
            suite = line[len("    # Subtest: "):]
            times[suite] = times.get(suite, 0) + 1
            name = suite if times[suite] == 1 else f"{suite}~{times[suite]}"
            doc = ["KTAP version 1", "1..1", prev]
            docs.append((name, doc))
            end = re.compile(rf"(not )?ok [0-9]+ {re.escape(suite)}( #.*)?")
        if doc is not None:
            if end.fullmatch(line):
                doc.append(re.sub(r"ok [0-9]+ ", "ok 1 ", line, count=1))
                doc = None
            else:
                doc.append(line)
        prev = line
    return docs


@dataclass
class Suite:
    name: str
    status: int         # the parser's exit status
    errors: list        # its [ERROR] lines, without their time
    results: list       # (CASE[: PARAMETER], status)
    plan: int           # the cases its KTAP plan announced (-1: no plan)
    cases: int          # the cases it reported
    good: int = 0       # passed, or skipped with an excuse
    bad: list = field(default_factory=list)


def json_results(group, prefix):
    """The results of the parser's JSON GROUP; a parameter's name follows
    its case's. The parser names a result that never came ""."""
    for case in group.get("test_cases", []):
        yield prefix + (case["name"] or "(missing)"), case["status"]
    for sub in group.get("sub_groups", []):
        yield from json_results(sub, prefix + sub["name"] + ": ")


def parse_suite(kunit_py, work, name, doc):
    """The kernel's parser on one suite's document: its exit status, its
    errors, each result (none if it made no JSON)."""
    base = os.path.join(work, name)
    with open(base + ".ktap", "w", encoding="utf-8",
              errors="surrogateescape") as f:
        f.write("".join(line + "\n" for line in doc))
    with open(base + ".txt", "wb") as out:
        status = subprocess.run([sys.executable, kunit_py, "parse",
                                 f"--json={base}.json", base + ".ktap"],
                                stdout=out, stderr=subprocess.STDOUT
                                ).returncode
    errors = [re.sub(r"^\[[0-9:]+\] \[ERROR\] ", "", line)
              for line in lines_of(base + ".txt") if "[ERROR]" in line]
    try:
        with open(base + ".json") as f:
            top = json.load(f)
    except (OSError, ValueError):
        top = {}
    results = list(json_results({"test_cases": top.get("test_cases", [])},
                                ""))
    for group in top.get("sub_groups", []):
        results += json_results(group, "")
    # The suite's own plan, the first at its indent (a parameterised
    # case's, deeper, is not); its cases are the results and parameter
    # groups of the one group under the document's root.
    plans = [int(m.group(1)) for m in
             (re.fullmatch(r"    1\.\.([0-9]+)", line) for line in doc) if m]
    groups = top.get("sub_groups", [])
    cases = (len(groups[0].get("test_cases", [])) +
             len(groups[0].get("sub_groups", []))) if len(groups) == 1 else 0
    return Suite(name, status, errors, results,
                 plans[0] if plans else -1, cases)


def judge_results(suites, skip_ok, tally):
    """Every KTAP result passed, or is a skip this run excuses."""
    for s in suites:
        for case, status in s.results:
            if status == "PASS":
                s.good += 1
                tally.passed += 1
            elif status == "SKIP" and f" {s.name}.{case} " in f" {skip_ok} ":
                s.good += 1
                print(f"skip  {s.name}.{case} (excused on this kernel)")
            else:
                s.bad.append(case)
                tally.failed += 1
                how = {"SKIP": "skipped", "ERROR": "crashed"}.get(status,
                                                                  "failed")
                print(f"FAIL  {s.name}.{case} ({how})")


@dataclass
class Report:
    suite_module: dict = field(default_factory=dict)  # suite: module
    loads: dict = field(default_factory=dict)    # "insmod M": status
    checks: set = field(default_factory=set)     # the names reported
    kmemleak_sent: bool = False
    boot_leaks: int = 0     # the kernel's own, excused
    finished: bool = False
    timeout: str = ""


def leak_objects(lines):
    """kmemleak's report, one list of lines per object."""
    objects = []
    for line in lines:
        if line.startswith("unreferenced object") or not objects:
            objects.append([])
        objects[-1].append(line)
    return objects


def judge_leaks(lines, report, tally):
    """One kmemleak report: no object but the boot's own (BOOT_LEAK).
    Returns None: the report is over."""
    ours = []
    for obj in leak_objects(lines):
        if any(BOOT_LEAK.match(line) for line in obj):
            report.boot_leaks += 1
        else:
            ours += obj
    tally.check("kmemleak found no leak", not ours,
                "suspected leaks:\n" + "".join(leak + "\n" for leak in ours))
    return None


def judge_channel(channel, tally):
    """The guest's report, line by line: each check, load and unload it
    reports passed, and every kmemleak report it sends is empty."""
    report = Report()
    leaks = None
    for line in channel:
        # A field the line lacks reads as empty, as in awk.
        w = words(line) + ["", "", ""]
        # A suite's line may come in the middle of kmemleak's report.
        if line.startswith("suite "):
            report.suite_module[w[2]] = w[1]
        elif leaks is not None:
            if line.startswith("kmemleak-end"):
                leaks = judge_leaks(leaks, report, tally)
            else:
                leaks.append(line)
        elif line.startswith("kmemleak-begin"):
            leaks = []
            report.kmemleak_sent = True
        elif line.startswith("check "):
            report.checks.add(w[1])
            tally.check("check " + w[1], w[2] == "ok",
                        re.sub(r"^check [^ ]+ [^ ]+ ?", "", line, count=1))
        elif line.startswith(("insmod ", "rmmod ")):
            report.loads[w[0] + " " + w[1]] = w[2]
            tally.check(w[0] + " " + w[1], w[2] == "ok")
        elif line.startswith("opp-verdict-end"):
            report.finished = True
        elif line.startswith("opp-harness: timeout"):
            report.timeout = line
    return report


@dataclass
class Console:
    done: bool = False
    kmemleak_started: bool = False
    splats: dict = field(default_factory=dict)  # name: [lines, first three]
    torture: list = field(default_factory=list)
    excused: int = 0


def scan_console(console):
    """What the console shows: the guest's markers, kmemleak's start, the
    splats (the board's power-off report after the guest's marker aside)
    and the torture's figures."""
    seen = Console()
    power_off = False
    for line in console:
        if line.endswith("opp-guest: done"):
            seen.done = True
        if line.endswith("opp-guest: power-off"):
            power_off = True
        if "kmemleak: Kernel memory leak detector initialized" in line:
            seen.kmemleak_started = True
        if power_off and POWER_OFF_NOISE.search(line):
            seen.excused += 1
            continue
        for name, regex in SPLATS:
            if regex.search(line):
                hit = seen.splats.setdefault(name, [0, []])
                hit[0] += 1
                if hit[0] <= 3:
                    hit[1].append(line)
                break
        if re.match(r"    # [A-Za-z0-9_]+: torture: ", line):
            seen.torture.append(re.sub(r"^.*: torture: ", "", line, count=1))
    return seen


def judge_modules(tests, manifest, suites, report, tally):
    """Every module of the run loaded and unloaded, and each of its suites
    ran, parsed cleanly, reported as many cases as its KTAP plan says, and
    came with that module. Returns the suites the run expected."""
    wanted = set()
    for m in tests:
        if m not in manifest.suites:
            tally.fail("module " + m, "not in the manifest")
            continue
        for load in ("insmod " + m, "rmmod " + m):
            if not report.loads.get(load):
                tally.fail(load, "not reported")
        for name in manifest.suites[m]:
            what = f"suite {name} ({m})"
            s = suites.get(name)
            if s is None:
                tally.fail(what, "did not run")
                continue
            wanted.add(name)
            # The parser exits 1 on a failed result too.
            if s.errors:
                tally.fail(what, f"KTAP parser: {len(s.errors)} errors, "
                           f"first: {s.errors[0]}")
            elif s.status != 0 and not s.bad:
                tally.fail(what, f"KTAP parser: exit status {s.status}")
            if s.plan < 0:
                tally.fail(what, "no KTAP plan")
            elif s.cases != s.plan:
                tally.fail(what, f"{s.cases} cases reported, its KTAP plan "
                           f"announced {s.plan}")
            came_with = report.suite_module.get(name, "")
            if came_with != m:
                tally.fail(what, "the guest saw it come with " + came_with
                           if came_with else
                           "the guest did not see it in debugfs")
    return wanted


def judge_suites_ran(suites, wanted, manifest, tally):
    """No suite ran that the run did not expect; one line per suite."""
    for s in suites.values():
        if s.name not in wanted:
            module = manifest.module.get(s.name)
            tally.fail("suite " + s.name,
                       "ran more than once" if "~" in s.name else
                       f"ran, and its module {module} is not in the run"
                       if module else
                       "ran, and the manifest does not know it")
        print(f"suite {s.name:<24} {s.good:3d}/{len(s.results):<3d} passed" +
              ("   not passed: " + " ".join(s.bad) if s.bad else ""))


def required(when, intent, tests):
    """Whether the manifest's WHEN holds for this run."""
    kind, _, what = when.partition(":")
    if when == "always":
        return True
    if when == "tests":
        return tests != ""
    if when == "lifecycle":
        return intent["lifecycle"] != ""
    if kind == "test":
        return what in tests.split()
    if kind == "scenario":
        return what in intent["scenarios"].split()
    return False


def judge_harness(intent, tests, manifest, report, console, tally):
    """A check-mode run: the library and the manifest's helper modules
    loaded and unloaded, the guest reported every check the manifest
    requires of it, and kmemleak ran from the boot on and sent its
    report."""
    for module in ["opp"] + manifest.helpers:
        for load in ("insmod " + module, "rmmod " + module):
            if not report.loads.get(load):
                tally.fail(load, "not reported")
    for when, name in manifest.checks:
        if not required(when, intent, tests):
            continue
        if name.endswith("*"):
            seen = any(c.startswith(name[:-1]) for c in report.checks)
        else:
            seen = name in report.checks
        if not seen:
            tally.fail("check " + name, "not reported")
    if not report.kmemleak_sent:
        tally.fail("kmemleak found no leak", "no report")
    tally.check("kmemleak initialised at boot", console.kmemleak_started,
                "no \"Kernel memory leak detector initialized\" on the "
                "console")


def judge_finished(report, console, stacks, tally):
    """The guest reached its end marker before the harness's timeout, and
    its console got there too."""
    if not report.timeout:
        why = "no end marker (crash or panic?)"
    elif stacks:
        why = f"{report.timeout}; where it was stuck in {stacks}"
    else:
        why = report.timeout
    tally.check("guest finished", report.finished and not report.timeout,
                why)
    if report.finished:
        tally.check("console complete", console.done,
                    "no \"opp-guest: done\" marker")


def judge_splats(console, tally):
    """No kernel splat on the console: one failure per kind, with its
    first lines."""
    for name, _ in SPLATS:
        if name in console.splats:
            count, first = console.splats[name]
            tally.fail("splat " + name, f"{count} lines, first:\n      " +
                       "\n      ".join(first))
    if not console.splats:
        tally.check("no kernel splat", True)


def console_excerpt(console, path):
    """Where it went wrong on the console: each line that shows a splat or
    a failed expectation, 2 lines before and 20 after, numbered as grep -n
    numbers them, 120 lines at most; without one, the last 40 lines."""
    print(f"--- console excerpt ({path}) ---")
    hits = {i for i, line in enumerate(console) if EXCERPT.search(line)}
    if not hits:
        for line in console[-40:]:
            print(line)
        return
    shown = sorted({j for i in hits
                    for j in range(max(i - 2, 0), min(i + 21, len(console)))})
    out = []
    for k, j in enumerate(shown):
        if k and j != shown[k - 1] + 1:
            out.append("--")
        out.append(f"{j + 1}{':' if j in hits else '-'}{console[j]}")
    for line in out[:120]:
        print(line)


def main():
    ap = argparse.ArgumentParser(allow_abbrev=False,
                                 description="Judge a guest run.")
    ap.add_argument("--tests", metavar='"MOD..."',
                    help="the run's modules, instead of the intent's")
    ap.add_argument("--manifest", metavar="FILE",
                    help="instead of selftest/manifest")
    ap.add_argument("--skip-ok", metavar='"S.C..."', default="",
                    help="the cases whose skip this run excuses")
    ap.add_argument("dir", metavar="DIR", help="the run directory")
    args = ap.parse_args()
    sys.stdout.reconfigure(errors="surrogateescape")

    # The KTAP parser runs from the kernel tree: DIR must not be relative.
    if not os.path.isdir(args.dir):
        sys.exit(f"error: no run directory {args.dir}")
    run = os.path.abspath(args.dir)
    intent = read_intent(run)
    tests = intent["tests"] if args.tests is None else args.tests
    top, src = common_facts(intent)
    manifest_path = args.manifest or os.path.join(top, "selftest/manifest")
    kunit_py = os.path.join(src, "tools/testing/kunit/kunit.py")
    cons = os.path.join(run, "console.log")
    chan = os.path.join(run, "channel.log")
    stacks = os.path.join(run, "stacks.log")
    if not os.path.isfile(chan) or not os.path.isfile(cons):
        fatal(f"no results in {run}")
    if not os.path.isfile(manifest_path):
        sys.exit(f"error: no manifest {manifest_path}")
    if not os.path.isfile(kunit_py):
        sys.exit(f"error: no {kunit_py} (run scripts/deps.sh)")

    # The console without its printk timestamps.
    console = [re.sub(r"^\[ *[0-9]+\.[0-9]+\] ", "", line, count=1)
               for line in lines_of(cons)]
    work = os.path.join(run, "verdict")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    suites = {name: parse_suite(kunit_py, work, name, doc)
              for name, doc in cut_suites(console)}

    tally = Tally()
    manifest = read_manifest(lines_of(manifest_path), tally.fail)
    skip_ok = " ".join(manifest.skips.get(intent["tier"], []) +
                       [args.skip_ok])
    judge_results(suites.values(), skip_ok, tally)
    report = judge_channel(lines_of(chan), tally)
    seen = scan_console(console)
    wanted = judge_modules(tests.split(), manifest, suites, report, tally)
    judge_suites_ran(suites, wanted, manifest, tally)
    for line in seen.torture:
        print("torture  " + line)
    if intent["mode"] == "check":
        judge_harness(intent, tests, manifest, report, seen, tally)
    judge_finished(report, seen, stacks if os.path.isfile(stacks) else "",
                   tally)
    judge_splats(seen, tally)
    if seen.excused:
        print(f"note  {seen.excused} line(s) of the board's power-off report "
              "excused")
    if report.boot_leaks:
        print(f"note  {report.boot_leaks} kmemleak report(s) of objects the "
              "kernel's boot allocated excused")
    print(f"{tally.passed} passed, {tally.failed} failed")
    if tally.failed:
        console_excerpt(console, cons)
        sys.exit(1)


if __name__ == "__main__":
    main()
