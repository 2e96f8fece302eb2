#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# The one reader of selftest/manifest (its format is in its header).
#
#   manifest.py tests TIER [MANIFEST]
#
# prints the "test" modules that TIER (arm, arm64, uml) runs, one a line,
# in the manifest's order, once each: what scripts/common.sh's
# manifest_tests gives the runners. A line it cannot read is an error
# (exit 1). verdict.py reads the rest of the manifest through read().

import re
import sys
from dataclasses import dataclass, field

TIERS = re.compile(r"(arm|arm64|uml)(,(arm|arm64|uml))*")


@dataclass
class Manifest:
    suites: dict = field(default_factory=dict)   # module: [suite, ...]
    module: dict = field(default_factory=dict)   # suite: module
    tiers: dict = field(default_factory=dict)    # test module: tiers or None
    checks: list = field(default_factory=list)   # (when, name)
    skips: dict = field(default_factory=dict)    # tier: ["SUITE.CASE", ...]
    helpers: list = field(default_factory=list)  # helper modules, in order

    def tests(self, tier):
        """The "test" modules that TIER runs, in the manifest's order."""
        return [m for m, only in self.tiers.items()
                if only is None or tier in only]


def suite_line(w):
    """Whether W, the words of a manifest line, are "test MODULE SUITE
    [TIER,...]" or "canary MODULE SUITE"."""
    if w[0] == "test":
        return len(w) == 3 or len(w) == 4 and bool(TIERS.fullmatch(w[3]))
    return w[0] == "canary" and len(w) == 3


def read(lines, bad):
    """The manifest whose text is LINES; each line it cannot read is
    passed to BAD(name, why)."""
    manifest = Manifest()
    for n, line in enumerate(lines, 1):
        if re.match(r"[ \t]*(#|$)", line):
            continue
        w = re.split(r"[ \t]+", line)
        if suite_line(w):
            module, suite = w[1], w[2]
            manifest.suites.setdefault(module, []).append(suite)
            manifest.module[suite] = module
            if w[0] == "test":
                only = set(w[3].split(",")) if len(w) == 4 else None
                manifest.tiers.setdefault(module, only)
        elif w[0] == "helper" and len(w) == 2 and \
                re.fullmatch(r"[a-z0-9_]+", w[1]):
            manifest.helpers.append(w[1])
        elif w[0] == "check" and len(w) == 3:
            manifest.checks.append((w[1], w[2]))
        elif (w[0] == "skip" and len(w) == 3 and TIERS.fullmatch(w[1])
              and re.fullmatch(r"[a-z0-9_]+\.[a-z0-9_]+", w[2])):
            for tier in w[1].split(","):
                manifest.skips.setdefault(tier, []).append(w[2])
        elif w[0] == "args" and len(w) >= 3 and all(
                re.fullmatch(r"[a-z0-9_]+=OPP_[A-Z_]+", a) for a in w[2:]):
            pass    # the guest's (initramfs/init)
        else:
            bad(f"manifest line {n}", f"cannot read \"{line}\"")
    return manifest


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[1] != "tests" or \
            not re.fullmatch(r"arm|arm64|uml", sys.argv[2]):
        sys.exit("usage: manifest.py tests arm|arm64|uml [MANIFEST]")
    path = sys.argv[3] if len(sys.argv) == 4 else "selftest/manifest"
    errors = []
    with open(path, encoding="utf-8") as f:
        manifest = read(f.read().splitlines(),
                        lambda name, why: errors.append(f"{name}: {why}"))
    if errors:
        sys.exit("\n".join(f"error: {path}: {e}" for e in errors))
    for module in manifest.tests(sys.argv[2]):
        print(module)


if __name__ == "__main__":
    main()
