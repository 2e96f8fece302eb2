#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Send one command to a User-Mode Linux guest's management console.

    uml-mconsole.py [--timeout SEC] [--idle SEC] SOCKET COMMAND...

SOCKET is the unix datagram socket that the guest's mconsole driver
(CONFIG_MCONSOLE) creates as UML_DIR/UMID/mconsole; COMMAND is one of its
commands ("sysrq w", "version", "help", ...). The protocol is that of the
kernel's arch/um/drivers/mconsole.h, version 2: one request (magic,
version, length, text), answered by replies (error, more, length, text)
until one has "more" clear. While a sysrq handler runs, the driver sends
what the kernel prints as replies of its own. The text goes to stdout.

The guest sends without waiting (a non-blocking socket), and the host
queues at most net.unix.max_dgram_qlen datagrams (10 by default) for a
reader: a long sysrq report loses replies, its last one included. So a
guest that answered and then sent nothing more for --idle seconds (2 by
default) has said all it will; the kernel's console has the whole report.

Exit status: 0 when the guest answered, 1 when it answered with an
error, 2 when it did not answer within --timeout seconds (10 by
default): a guest that does not take its interrupts never answers.
"""

import argparse
import os
import socket
import struct
import sys

MCONSOLE_MAGIC = 0xCAFEBABE
MCONSOLE_VERSION = 2
MCONSOLE_MAX_DATA = 512
# struct mconsole_request: u32 magic, u32 version, u32 len, char data[512];
# struct mconsole_reply: u32 err, u32 more, u32 len, char data[len].
REQUEST = struct.Struct(f"=III{MCONSOLE_MAX_DATA}s")
REPLY_HEAD = struct.Struct("=III")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--idle", type=float, default=2.0)
    ap.add_argument("socket")
    ap.add_argument("command", nargs="+")
    args = ap.parse_args()

    cmd = " ".join(args.command).encode()
    if len(cmd) >= MCONSOLE_MAX_DATA:
        sys.exit("uml-mconsole: command too long")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    # The guest answers to the sender's address: an abstract one, which
    # leaves no file behind.
    sock.bind(f"\0opp-mconsole-{os.getpid()}")
    sock.settimeout(args.timeout)
    try:
        sock.sendto(REQUEST.pack(MCONSOLE_MAGIC, MCONSOLE_VERSION, len(cmd), cmd),
                    args.socket)
    except OSError as e:
        print(f"uml-mconsole: {args.socket}: {e.strerror}", file=sys.stderr)
        return 2

    err = 0
    out = sys.stdout.buffer
    last = b"\n"
    answered = False
    while True:
        try:
            packet = sock.recv(REPLY_HEAD.size + MCONSOLE_MAX_DATA)
        except socket.timeout:
            if answered:
                break
            out.flush()
            print(f"uml-mconsole: no answer to \"{cmd.decode()}\" within "
                  f"{args.timeout:g} s", file=sys.stderr)
            return 2
        if not answered:
            answered = True
            sock.settimeout(args.idle)
        if len(packet) < REPLY_HEAD.size:
            continue
        perr, more, length = REPLY_HEAD.unpack_from(packet)
        text = packet[REPLY_HEAD.size:REPLY_HEAD.size + length].rstrip(b"\0")
        err = err or perr
        if text:
            out.write(text)
            last = text[-1:]
        if not more:
            break
    if last != b"\n":
        out.write(b"\n")
    out.flush()
    return 1 if err else 0


if __name__ == "__main__":
    sys.exit(main())
