#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Ask a QEMU guest's human monitor one question, and say where its CPUs are.

    qemu-monitor.py [--timeout SEC] [--symbols System.map] [--brief]
                    SOCKET COMMAND...

SOCKET is the unix stream socket of QEMU's -monitor unix:SOCKET,server=on,
wait=off; COMMAND a monitor command ("info registers -a", "info status").
The monitor greets with a banner and its "(qemu) " prompt, and answers a
command with text that ends at the next prompt: that text goes to stdout.

With --symbols, each vCPU's program counter and link register in an
"info registers" answer (arm64: PC and X30; arm: R15 and R14) are named
from the kernel's System.map, function+offset/size, in lines of their
own after the answer ("where CPU#1: PC ... LR ..."): a guest stuck
before its console came up has told nothing else. An address outside
the map's text (a module, a relocated kernel, the MMU still off) is
said to be. --brief prints those lines alone.

Exit status: 0 when the monitor answered, 2 when it did not within
--timeout seconds (10 by default): the monitor runs in QEMU's main loop,
and a QEMU whose main loop is stuck cannot answer.
"""

import argparse
import bisect
import re
import socket
import sys
import time

PROMPT = b"(qemu) "
# "CPU#1" heads each vCPU's dump in "info registers -a".
CPU_HEAD = re.compile(r"^CPU#(\d+)\s*$")
# arm64: " PC=ffffffc008012345 X00=..."; arm: "R14=c0101234 R15=c0105678".
REGISTER = re.compile(r"\b(PC|X30|R14|R15)=([0-9a-f]+)\b")
NAMES = {"PC": "PC", "R15": "PC", "X30": "LR", "R14": "LR"}


class Symbols:
    """The text symbols of a System.map, for address to function+offset."""

    def __init__(self, path):
        syms = []
        start = end = None
        with open(path) as f:
            for line in f:
                fields = line.split()
                if len(fields) < 3:
                    continue
                addr = int(fields[0], 16)
                if fields[2] == "_stext":
                    start = addr
                elif fields[2] == "_etext":
                    end = addr
                if fields[1] in "TtWw":
                    syms.append((addr, fields[2]))
        syms.sort()
        self.addrs = [a for a, _ in syms]
        self.names = [n for _, n in syms]
        self.start = start if start is not None else (syms[0][0] if syms else 0)
        self.end = end if end is not None else (syms[-1][0] if syms else 0)

    def name(self, addr):
        if not self.start <= addr < self.end:
            return "outside the kernel's text (a module, or the MMU off)"
        i = bisect.bisect_right(self.addrs, addr) - 1
        size = (self.addrs[i + 1] if i + 1 < len(self.addrs) else self.end) - self.addrs[i]
        return f"{self.names[i]}+{addr - self.addrs[i]:#x}/{size:#x}"


def ask(path, command, timeout):
    """The monitor's answer to COMMAND, or None when it gave none in time."""
    deadline = time.monotonic() + timeout
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect(path)
        buf = b""
        sent = False
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            sock.settimeout(left)
            chunk = sock.recv(65536)
            if not chunk:
                return None
            buf += chunk
            if not buf.endswith(PROMPT):
                continue
            if sent:
                # The echoed command line, then the answer, then a prompt.
                text = buf[:-len(PROMPT)].decode(errors="replace")
                text = text.replace("\r\n", "\n").replace("\r", "")
                return text.split("\n", 1)[1] if "\n" in text else ""
            buf = b""
            sock.sendall(command.encode() + b"\n")
            sent = True
    except (OSError, socket.timeout):
        return None
    finally:
        sock.close()


def where(text, symbols):
    """Lines naming each vCPU's PC and LR in an "info registers" answer."""
    lines = []
    cpu = "CPU#0"
    regs = {}

    def flush():
        if regs:
            named = "  ".join(f"{r} {regs[r]:x} {symbols.name(regs[r])}"
                              for r in ("PC", "LR") if r in regs)
            lines.append(f"where {cpu}: {named}")

    for line in text.splitlines():
        m = CPU_HEAD.match(line.strip())
        if m:
            flush()
            cpu = f"CPU#{m.group(1)}"
            regs = {}
            continue
        for reg, val in REGISTER.findall(line):
            # arm: bit 0 of a return address is the Thumb state's.
            regs[NAMES[reg]] = int(val, 16) & ~1 if reg == "R14" else int(val, 16)
    flush()
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--symbols")
    ap.add_argument("--brief", action="store_true")
    ap.add_argument("socket")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()

    text = ask(args.socket, " ".join(args.command), args.timeout)
    if text is None:
        print(f"qemu-monitor: no answer from {args.socket} within "
              f"{args.timeout:g} s", file=sys.stderr)
        return 2
    if not args.brief:
        sys.stdout.write(text if text.endswith("\n") or not text else text + "\n")
    if args.symbols:
        for line in where(text, Symbols(args.symbols)):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
