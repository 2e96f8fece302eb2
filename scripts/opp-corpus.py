#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Collect the OPP tables of a kernel tree's boards into one overlay.

    opp-corpus.py --src TREE --out DIR [--dtc DTC] [--jobs N]

Compiles every board (.dts) of TREE's arch/arm and arch/arm64 with the
tree's own recipe (scripts/Makefile.lib: the C preprocessor with
-nostdinc, the tree's include prefixes, -undef -D__DTS__, as
assembler-with-cpp; then dtc with the board's directory and the include
prefixes as include paths), and reads every OPP table of each: the
operating-points-v2 tables (whatever their compatible says) with what the
node that points at them tells the parsers, and the v1 operating-points
lists with their node's clock-latency and voltage-tolerance.

A table is what the parsers read of it, so identical ones are kept once:
the key of a v2 table is its opp-shared and its available OPP nodes'
properties that either parser reads, in the order of the tree (the first
OPP decides things), required-opps by the key of the OPP each points at;
the key of an entry adds its consumer's facts (#power-domain-cells, the
number of interconnects entries when the table carries bandwidth, its
clock-latency; the supply and clock names for a table of several supplies
or clocks). Disabled OPP nodes, node names and the compatible (neither
parser reads them) are not part of it.

DIR receives opp_of_corpus.dtso, the overlay that the harness applies to
the guest's tree (scripts/common.sh, corpus_dtso), corpus.txt, the counts,
and boards.log, the boards that did not compile. The overlay's
/opp-corpus holds one table node per distinct table and one entry node
per distinct entry, a consumer that points at its table; the selftest
(selftest/opp_of_corpus_test.c) reads them, and the file's header says
how. DIR/stamp, written last, marks a complete output: a second run with
the same DIR does nothing.

Progress goes to stderr; the last line on stdout is
"T tables from B boards".
"""

import argparse
import multiprocessing
import os
import re
import struct
import subprocess
import sys
import tempfile
import time

# The OPP node properties that this library's or the kernel's parser
# reads (drivers/opp/of.c); the -<name> forms of the supply values too.
OPP_PROPS = {
    'opp-hz', 'opp-level', 'opp-peak-kBps', 'opp-avg-kBps',
    'opp-microvolt', 'opp-microamp', 'opp-microwatt', 'opp-supported-hw',
    'turbo-mode', 'opp-suspend', 'clock-latency-ns', 'required-opps',
}
NAMED_PREFIXES = ('opp-microvolt-', 'opp-microamp-', 'opp-microwatt-')

FDT_MAGIC = 0xd00dfeed
FDT_BEGIN_NODE, FDT_END_NODE, FDT_PROP, FDT_NOP, FDT_END = 1, 2, 3, 4, 9


class Node:
    """One node of a flattened tree: its name, properties and children."""

    __slots__ = ('name', 'props', 'children', 'parent')

    def __init__(self, name, parent):
        self.name = name
        self.props = {}
        self.children = []
        self.parent = parent

    def path(self):
        names = []
        node = self
        while node.parent is not None:
            names.append(node.name)
            node = node.parent
        return '/' + '/'.join(reversed(names))

    def available(self):
        # of_device_is_available(): no status, "okay" or "ok".
        status = self.props.get('status')
        return status is None or status.rstrip(b'\0') in (b'okay', b'ok')

    def available_children(self):
        return [c for c in self.children if c.available()]


def parse_fdt(blob):
    """The root Node of a flattened device tree (a .dtb's bytes)."""
    (magic, _, off_struct, off_strings, _, _, _, _, size_strings,
     size_struct) = struct.unpack_from('>10I', blob, 0)
    if magic != FDT_MAGIC:
        raise ValueError('not a flattened device tree')
    strings = blob[off_strings:off_strings + size_strings]
    pos = off_struct
    end = off_struct + size_struct
    root = None
    node = None
    while pos < end:
        (token,) = struct.unpack_from('>I', blob, pos)
        pos += 4
        if token == FDT_BEGIN_NODE:
            nul = blob.index(b'\0', pos)
            name = blob[pos:nul].decode('ascii', 'replace')
            pos = (nul + 4) & ~3
            child = Node(name, node)
            if node is None:
                root = child
            else:
                node.children.append(child)
            node = child
        elif token == FDT_END_NODE:
            node = node.parent
        elif token == FDT_PROP:
            length, nameoff = struct.unpack_from('>II', blob, pos)
            pos += 8
            pname = strings[nameoff:strings.index(b'\0', nameoff)]
            node.props[pname.decode('ascii', 'replace')] = blob[pos:pos + length]
            pos = (pos + length + 3) & ~3
        elif token == FDT_NOP:
            continue
        elif token == FDT_END:
            break
        else:
            raise ValueError('bad token %d' % token)
    return root


def cells(value):
    """The big-endian u32 cells of a property value."""
    return list(struct.unpack('>%dI' % (len(value) // 4), value[:len(value) // 4 * 4]))


def walk(node):
    yield node
    for child in node.children:
        yield from walk(child)


def strings(value):
    return [s.decode('ascii', 'replace') for s in value.split(b'\0')[:-1]]


class Board:
    """The OPP tables of one compiled board, keyed for deduplication."""

    def __init__(self, name, root):
        self.name = name
        self.root = root
        self.phandles = {}
        for node in walk(root):
            for prop in ('phandle', 'linux,phandle'):
                value = node.props.get(prop)
                if value is not None and len(value) == 4:
                    self.phandles[cells(value)[0]] = node
        self.table_keys = {}
        # The nodes whose operating-points-v2 points at each table node.
        self.consumers = {}
        for node in walk(root):
            for ph in cells(node.props.get('operating-points-v2', b'')):
                tnode = self.phandles.get(ph)
                if tnode is not None:
                    self.consumers.setdefault(id(tnode), []).append(node)
        # What the parent process needs to write each table, by key.
        self.tables = {}
        self.entries = []

    def consumers_of(self, tnode):
        """The nodes whose operating-points-v2 points at tnode."""
        return list(self.consumers.get(id(tnode), []))

    def icc_count(self, node):
        """The interconnects entries of node, as of_count_phandle_with_args()
        counts them with #interconnect-cells; -1 if it cannot."""
        value = node.props.get('interconnects')
        if value is None:
            return -1
        words = cells(value)
        i = count = 0
        while i < len(words):
            ph = words[i]
            i += 1
            count += 1
            if not ph:
                continue
            target = self.phandles.get(ph)
            if target is None or '#interconnect-cells' not in target.props:
                return -1
            i += cells(target.props['#interconnect-cells'])[0]
        return count if i == len(words) else -1

    def facts(self, consumer, tnode):
        """What the parsers read of a v2 table's consumer node (None: no
        consumer), as a hashable tuple: #power-domain-cells, the
        interconnects entries (when the table's first OPP has
        bandwidth), clock-latency; the supply and clock names when the
        table has several of either (for the configuration both sides
        will need)."""
        if consumer is None:
            return (False, 0, None, None)
        genpd = '#power-domain-cells' in consumer.props
        first = tnode.available_children()[:1]
        icc = 0
        if first and first[0].props.get('opp-peak-kBps'):
            icc = max(self.icc_count(consumer), 0)
        latency = consumer.props.get('clock-latency')
        latency = cells(latency)[0] if latency and len(latency) == 4 else None
        names = None
        if several(tnode, supply_names(consumer)):
            clocks = consumer.props.get('clock-names')
            names = driver_names(tnode, supply_names(consumer),
                                 strings(clocks) if clocks else [])
        return (genpd, icc, latency, names)

    def provider_facts(self, tnode):
        """The facts of the node that reads tnode where tnode is required
        by another table: a power domain's first (the one a genpd core
        would read it for), else any consumer's first, else none."""
        users = self.consumers_of(tnode)
        users.sort(key=lambda n: '#power-domain-cells' not in n.props)
        return self.facts(users[0] if users else None, tnode)

    def table_key(self, tnode, seen=()):
        """The key of a v2 table node (see the header); records the table
        in self.tables."""
        key = self.table_keys.get(id(tnode))
        if key is not None:
            return key
        if tnode in seen:
            raise ValueError('required-opps loop at %s' % tnode.path())
        seen = seen + (tnode,)
        items = []
        emit = []
        for child in tnode.available_children():
            props = {k: v for k, v in child.props.items()
                     if k in OPP_PROPS or k.startswith(NAMED_PREFIXES)}
            reqs = []
            for ph in cells(props.pop('required-opps', b'')):
                target = self.phandles.get(ph)
                if target is None or target.parent is None:
                    reqs.append(None)
                    continue
                ttable = target.parent
                tkey = self.table_key(ttable, seen)
                siblings = ttable.available_children()
                index = siblings.index(target) if target in siblings else None
                reqs.append((tkey, self.provider_facts(ttable), index))
            items.append((tuple(sorted(props.items())), tuple(reqs)))
            emit.append((child.name, props, reqs))
        key = ('opp-shared' in tnode.props, tuple(items))
        self.table_keys[id(tnode)] = key
        compatible = tnode.props.get('compatible', b'')
        self.tables.setdefault(key, (compatible, emit))
        return key

    def add_v2(self, tnode, consumer):
        key = self.table_key(tnode)
        facts = self.facts(consumer, tnode)
        where = consumer.path() if consumer is not None else tnode.path()
        self.entries.append((('v2', key, facts), where))

    def collect(self):
        tables = []
        for node in walk(self.root):
            if node.props.get('operating-points-v2'):
                for ph in cells(node.props['operating-points-v2']):
                    tnode = self.phandles.get(ph)
                    if tnode is not None:
                        self.add_v2(tnode, node)
                        tables.append(tnode)
            elif 'operating-points' in node.props:
                latency = node.props.get('clock-latency')
                tolerance = node.props.get('voltage-tolerance')
                self.entries.append((('v1', node.props['operating-points'],
                                      latency, tolerance), node.path()))
        # Tables nobody points at: by their compatible, or as the target
        # of another table's required-opps; read as a device without
        # facts would read them.
        for node in walk(self.root):
            compatible = node.props.get('compatible', b'')
            if node not in tables and any('operating-points-v2' in s
                                          for s in strings(compatible)):
                self.add_v2(node, None)
                tables.append(node)
        i = 0
        while i < len(tables):
            node = tables[i]
            i += 1
            for child in node.available_children():
                for ph in cells(child.props.get('required-opps', b'')):
                    target = self.phandles.get(ph)
                    if target is not None and target.parent not in tables:
                        tables.append(target.parent)
                        if not self.consumers_of(target.parent):
                            self.add_v2(target.parent, None)


def supply_names(node):
    return sorted(k[:-len('-supply')] for k in node.props if k.endswith('-supply'))


def driver_names(tnode, supplies, clocks):
    """The supply and clock names a driver of a table of several would give
    (the tree does not say: a driver's names are in its code), fitted to
    the table: as many supplies as its values are for, the consumer's
    names if it has that many (a triplet per supply rather than one value
    each where the cells allow both), and as many clocks as its opp-hz has
    rates (none named for one: the device's clock), the consumer's
    clock-names first; names of the form supply-N and clock-N make up the
    rest. A table whose OPPs do not agree on a count keeps the consumer's
    names, which both parsers then refuse alike."""
    children = [c.props for c in tnode.available_children()]
    counts = None
    rates = 1
    for props in children:
        for name, value in props.items():
            n = len(value) // 4
            if name == 'opp-hz':
                rates = max(rates, n // 2)
            elif name.startswith('opp-microvolt'):
                fit = {n, n // 3} if n % 3 == 0 else {n}
                counts = fit if counts is None else counts & fit
            elif name.startswith(('opp-microamp', 'opp-microwatt')):
                counts = {n} if counts is None else counts & {n}
    if counts is None:
        counts = {1}
    if not counts:
        return (tuple(supplies), tuple(clocks))
    if len(supplies) in counts:
        nsupplies = len(supplies)
    else:
        nsupplies = min(counts)
    supply = list(supplies) + ['supply-%d' % i for i in range(len(supplies), nsupplies)]
    clock = list(clocks) + ['clock-%d' % i for i in range(len(clocks), rates)]
    return (tuple(supply[:nsupplies] if nsupplies > 1 else ()),
            tuple(clock[:rates] if rates > 1 else ()))


def several(tnode, supplies):
    """Whether a table has several clocks (opp-hz of more than one rate) or
    several supplies (supply values of other than one value or triplet,
    or one per supply the consumer names)."""
    return several_props([c.props for c in tnode.available_children()], supplies)


def several_props(children, supplies):
    for props in children:
        for name, value in props.items():
            if name == 'opp-hz' and len(value) > 8:
                return True
            n = len(value) // 4
            if name.startswith('opp-microvolt'):
                if n not in (1, 3) or (len(supplies) > 1 and
                                       n in (len(supplies), 3 * len(supplies))):
                    return True
            elif name.startswith(('opp-microamp', 'opp-microwatt')) and n > 1:
                return True
    return False


def compile_board(job):
    """Worker: compile one .dts and return its OPP entries and tables."""
    src, dts, dtc = job
    name = os.path.relpath(dts, os.path.join(src, 'arch'))[:-len('.dts')]
    name = name.replace('/boot/dts', '')
    prefixes = os.path.join(src, 'scripts', 'dtc', 'include-prefixes')
    with tempfile.TemporaryDirectory() as tmp:
        pre = os.path.join(tmp, 'board.dts.tmp')
        dtb = os.path.join(tmp, 'board.dtb')
        cpp = subprocess.run(['gcc', '-E', '-nostdinc', '-I', prefixes, '-undef',
                              '-D__DTS__', '-x', 'assembler-with-cpp', '-o', pre, dts],
                             capture_output=True, text=True, check=False)
        if cpp.returncode:
            return name, None, cpp.stderr.strip().splitlines()[-1:]
        run = subprocess.run([dtc, '-q', '-I', 'dts', '-O', 'dtb', '-o', dtb, '-b', '0',
                              '-i', os.path.dirname(dts), '-i', prefixes, pre],
                             capture_output=True, text=True, check=False)
        if run.returncode:
            return name, None, run.stderr.strip().splitlines()[-1:]
        with open(dtb, 'rb') as f:
            blob = f.read()
    try:
        board = Board(name, parse_fdt(blob))
        board.collect()
    except (ValueError, struct.error) as e:
        return name, None, [str(e)]
    return name, (board.entries, board.tables), None


INCLUDE_RE = re.compile(rb'^[ \t]*(#[ \t]*include|/include/)[ \t]*([<"])([^>"]+)[>"]', re.M)


class Prefilter:
    """Which boards may have an OPP table: those whose text, or the text
    of a file they include, says "operating-points" (every table, v1 or
    v2, is named so by its consumer or its compatible). Compiling is what
    costs; a board without the words has no table to compile for. An
    include that cannot be found keeps the board (it is compiled, and the
    compiler says what is wrong)."""

    def __init__(self, src):
        self.prefixes = os.path.join(src, 'scripts', 'dtc', 'include-prefixes')
        self.memo = {}

    def resolve(self, name, quoted, here, board_dir):
        dirs = ([here] if quoted else []) + [board_dir, self.prefixes]
        for d in dirs:
            path = os.path.join(d, name.decode('utf-8', 'replace'))
            if os.path.isfile(path):
                return os.path.realpath(path)
        return None

    def mentions(self, path, board_dir, stack=()):
        if path in self.memo:
            return self.memo[path]
        if path in stack:
            return False
        with open(path, 'rb') as f:
            text = f.read()
        found = b'operating-points' in text
        here = os.path.dirname(path)
        for _, quote, name in INCLUDE_RE.findall(text):
            if found:
                break
            inc = self.resolve(name, quote == b'"', here, board_dir)
            found = inc is None or self.mentions(inc, board_dir, stack + (path,))
        self.memo[path] = found
        return found

    def keep(self, dts):
        return self.mentions(os.path.realpath(dts), os.path.dirname(dts))


def board_sources(src):
    found = []
    for arch in ('arm', 'arm64'):
        top = os.path.join(src, 'arch', arch, 'boot', 'dts')
        for d, _, files in os.walk(top):
            found += [os.path.join(d, f) for f in files if f.endswith('.dts')]
    return sorted(found)


# ---- The overlay ----

def fmt_cells(value):
    return '<%s>' % ' '.join('0x%x' % c for c in cells(value))


def fmt_prop(name, value):
    if not value:
        return '%s;' % name
    if name == 'compatible':
        return '%s = %s;' % (name, ', '.join('"%s"' % s for s in strings(value)))
    if len(value) % 4:
        return '%s = [%s];' % (name, ' '.join('%02x' % b for b in value))
    return '%s = %s;' % (name, fmt_cells(value))


def first_available_props(emit):
    return emit[0][1] if emit else {}


def supported_hw_mask(emit):
    """The mask both sides are given for a table with opp-supported-hw, as
    a driver would: the first OPP's first version, one bit per level (the
    lowest it sets), as many levels as the shortest property has cells.
    None when the table's first OPP has no opp-supported-hw (its OPPs
    with one are then dropped by both sides)."""
    first = first_available_props(emit).get('opp-supported-hw')
    if not first or len(first) < 4:
        return None
    levels = min(len(p['opp-supported-hw']) // 4 for _, p, _ in emit
                 if len(p.get('opp-supported-hw', b'')) >= 4)
    mask = []
    for v in cells(first)[:levels]:
        mask.append(v & -v if v else 1)
    return mask


def prop_name(emit):
    """The suffix of opp-microvolt-<name>, the first in sorted order, for a
    table that names its voltages (as its driver would pick one)."""
    names = sorted({k[len('opp-microvolt-'):] for _, p, _ in emit for k in p
                    if k.startswith('opp-microvolt-')})
    return names[0] if names else None


def supported(props, mask):
    value = props.get('opp-supported-hw')
    if mask is None:
        return value is None
    if not value or len(value) // 4 % len(mask) or len(value) % 4:
        return False
    words = cells(value)
    for i in range(0, len(words), len(mask)):
        if all(words[i + j] & mask[j] for j in range(len(mask))):
            return True
    return False


def v2_rule(emit, mask, name, genpd):
    """The documented difference (Documentation/opp.rst) that this table
    shows, if any: the first OPP read that either parser treats as the
    rule says. "rate-zero": opp-hz 0 (the kernel keeps it, this library
    refuses the table); "rate-above-32bit": a rate above 32 bits (on a
    32-bit guest this library refuses it and the kernel, which WARNs and
    truncates, is not asked); "triplet-order": an opp-microvolt triplet
    whose target is outside [min, max]; "genpd-level-warn": an OPP with an
    opp-level of its own and one required OPP, of a power domain's table,
    in a table that is not a power domain's (the kernel WARNs from 6.8
    on, and is not asked there)."""
    first = emit[0][2] if emit else []
    warns = (not genpd and len(first) == 1 and first[0] is not None and
             first[0][1][0])
    for _, props, reqs in emit:
        if not supported(props, mask):
            continue
        if warns and 'opp-level' in props and reqs and reqs[0] is not None:
            return 'genpd-level-warn'
        if not supported(props, mask):
            continue
        hz = props.get('opp-hz')
        if hz is not None and len(hz) == 8:
            rate = struct.unpack('>Q', hz)[0]
            if rate == 0:
                return 'rate-zero'
            if rate > 0xffffffff:
                return 'rate-above-32bit'
        uv = props.get('opp-microvolt-%s' % name) if name else None
        if uv is None:
            uv = props.get('opp-microvolt')
        if uv is not None and len(uv) == 12:
            target, lo, hi = cells(uv)
            if not lo <= target <= hi:
                return 'triplet-order'
    return None


def v1_rule(value):
    """As v2_rule() for a v1 list: "v1-rate-zero" (a frequency of 0),
    "v1-rate-above-32bit" (kHz * 1000 beyond 32 bits), "v1-two-voltages"
    (one rate with two voltages: the kernel says -EEXIST, this library
    -EINVAL, as it has for v1 since 2.6.37), "v1-empty"."""
    words = cells(value)
    if not words or len(value) % 8:
        return 'v1-empty' if not value else None
    volts = {}
    for i in range(0, len(words), 2):
        khz, uv = words[i], words[i + 1]
        if khz == 0:
            return 'v1-rate-zero'
        if khz * 1000 > 0xffffffff:
            return 'v1-rate-above-32bit'
        if volts.setdefault(khz, uv) != uv:
            return 'v1-two-voltages'
    return None


class Corpus:
    """Every board's entries merged: tables and entries kept once."""

    def __init__(self):
        self.tables = {}	# key -> (compatible, emit)
        self.entries = {}	# key -> [boards, where]
        self.boards = 0
        self.failed = []

    def add(self, name, result):
        entries, tables = result
        for key, value in tables.items():
            self.tables.setdefault(key, value)
        if entries:
            self.boards += 1
        for key, where in entries:
            e = self.entries.setdefault(key, [[], where])
            if name not in e[0]:
                e[0].append(name)

    def ensure_providers(self):
        """Every table that a required-opps points into has the entry
        its provider facts name, so the selftest can read it first."""
        todo = [k for k in self.entries if k[0] == 'v2']
        while todo:
            key = todo.pop()
            _, emit = self.tables[key[1]]
            for _, _, reqs in emit:
                for r in reqs:
                    if r is None:
                        continue
                    pkey = ('v2', r[0], r[1])
                    if pkey not in self.entries:
                        self.entries[pkey] = [[], 'required by another table']
                        todo.append(pkey)

    def write(self, path, stats):
        # By kind, then by the first board that has it (boards come in
        # the sorted order of their files): the same tree gives the same
        # overlay.
        order = sorted(self.entries, key=lambda k: (k[0], self.entries[k][0][0]
                                                    if self.entries[k][0] else '~'))
        tlabel = {}
        elabel = {}
        for key in order:
            if key[0] == 'v2' and key[1] not in tlabel:
                tlabel[key[1]] = 't%d' % len(tlabel)
            elabel[key] = 'e%d' % len(elabel)
        # Tables only required (no entry of their own) cannot be: every
        # required table has its provider's entry (ensure_providers).
        out = []
        w = out.append
        w('// SPDX-License-Identifier: GPL-2.0')
        w('/*')
        w(' * Generated by scripts/opp-corpus.py: the OPP tables of every board of')
        w(' * a kernel tree, for selftest/opp_of_corpus_test.c. /opp-corpus holds')
        w(' * the table nodes (table-N) and one entry-N per distinct table and')
        w(' * consumer: operating-points-v2 (or a v1 operating-points) with what')
        w(' * the board\'s consumer tells the parsers, and opp-corpus,* properties')
        w(' * for the selftest: the first board and node it came from, the')
        w(' * entries to read first (providers of its required-opps), the')
        w(' * supported-hw mask and voltage name to configure, the documented')
        w(' * difference it shows (rule), several supplies or clocks (several).')
        w(' * fdtoverlay adds children in reverse: each table\'s OPPs are written')
        w(' * last first, so the live tree has them in the board\'s order.')
        w(' */')
        w('/dts-v1/;')
        w('/plugin/;')
        w('')
        w('&{/} {')
        w('\topp-corpus {')
        w('\t\topp-corpus,tables = <%d>;' % len(order))
        w('\t\topp-corpus,boards = <%d>;' % self.boards)
        w('\t\tcorpus_icc: interconnect {')
        w('\t\t\t#interconnect-cells = <0>;')
        w('\t\t};')
        targets = set()
        for key in tlabel:
            for _, _, reqs in self.tables[key][1]:
                for r in reqs:
                    if r is not None and r[2] is not None:
                        targets.add((r[0], r[2]))
        for key, label in tlabel.items():
            compatible, emit = self.tables[key]
            w('')
            w('\t\t%s: table-%s {' % (label, label[1:]))
            if compatible:
                w('\t\t\t%s' % fmt_prop('compatible', compatible))
            if key[0]:
                w('\t\t\topp-shared;')
            for i in reversed(range(len(emit))):
                name, props, reqs = emit[i]
                olabel = '%s_%d: ' % (label, i) if (key, i) in targets else ''
                w('\t\t\t%s%s {' % (olabel, name))
                for pname in sorted(props):
                    w('\t\t\t\t%s' % fmt_prop(pname, props[pname]))
                if reqs:
                    refs = []
                    for r in reqs:
                        if r is None or r[2] is None:
                            # A phandle to nothing (or to a disabled OPP):
                            # one that no node of the overlay carries.
                            refs.append('0xffffffff')
                        else:
                            refs.append('&%s_%d' % (tlabel[r[0]], r[2]))
                    w('\t\t\t\trequired-opps = <%s>;' % ' '.join(refs))
                w('\t\t\t};')
            w('\t\t};')
        for key in order:
            boards, where = self.entries[key]
            label = elabel[key]
            w('')
            w('\t\t%s: entry-%s {' % (label, label[1:]))
            w('\t\t\topp-corpus,board = "%s";' % (boards[0] if boards else ''))
            w('\t\t\topp-corpus,node = "%s";' % where)
            w('\t\t\topp-corpus,boards = <%d>;' % len(boards))
            rule = None
            if key[0] == 'v1':
                _, ops, latency, tolerance = key
                w('\t\t\t%s' % fmt_prop('operating-points', ops))
                if latency is not None:
                    w('\t\t\t%s' % fmt_prop('clock-latency', latency))
                if tolerance is not None:
                    w('\t\t\t%s' % fmt_prop('voltage-tolerance', tolerance))
                    stats['v1 voltage-tolerance'] = stats.get('v1 voltage-tolerance', 0) + 1
                rule = v1_rule(ops)
            else:
                _, tkey, (genpd, icc, latency, names) = key
                emit = self.tables[tkey][1]
                w('\t\t\toperating-points-v2 = <&%s>;' % tlabel[tkey])
                if genpd:
                    w('\t\t\t#power-domain-cells = <0>;')
                if icc:
                    w('\t\t\tinterconnects = <%s>;' % ' '.join(['&corpus_icc'] * icc))
                if latency is not None:
                    w('\t\t\tclock-latency = <%d>;' % latency)
                providers = []
                for _, _, reqs in emit:
                    for r in reqs:
                        if r is not None and elabel[('v2', r[0], r[1])] not in providers:
                            providers.append(elabel[('v2', r[0], r[1])])
                if providers:
                    w('\t\t\topp-corpus,providers = <%s>;' %
                      ' '.join('&' + p for p in providers))
                mask = supported_hw_mask(emit)
                if mask:
                    w('\t\t\topp-corpus,supported-hw = <%s>;' %
                      ' '.join('0x%x' % m for m in mask))
                name = prop_name(emit)
                if name:
                    w('\t\t\topp-corpus,prop-name = "%s";' % name)
                if names is not None or several_props([p for _, p, _ in emit], ()):
                    stats['several'] = stats.get('several', 0) + 1
                    w('\t\t\topp-corpus,several;')
                if names is not None:
                    if names[0]:
                        w('\t\t\topp-corpus,regulator-names = %s;' %
                          ', '.join('"%s"' % n for n in names[0]))
                    if names[1]:
                        w('\t\t\topp-corpus,clock-names = %s;' %
                          ', '.join('"%s"' % n for n in names[1]))
                rule = v2_rule(emit, mask, name, genpd)
                if providers:
                    stats['required'] = stats.get('required', 0) + 1
            if rule:
                stats['rule ' + rule] = stats.get('rule ' + rule, 0) + 1
                w('\t\t\topp-corpus,rule = "%s";' % rule)
            stats[key[0]] = stats.get(key[0], 0) + 1
            w('\t\t};')
        w('\t};')
        w('};')
        with open(path, 'w') as f:
            f.write('\n'.join(out) + '\n')
        return len(order)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--src', required=True, help='the unpacked kernel tree')
    ap.add_argument('--out', required=True, help='the output directory')
    ap.add_argument('--dtc', default='dtc', help='the dtc to compile with')
    ap.add_argument('--jobs', type=int, default=2,
                    help='worker processes (at most 2: the host is shared)')
    args = ap.parse_args()
    stamp = os.path.join(args.out, 'stamp')
    summary = os.path.join(args.out, 'corpus.txt')
    if os.path.exists(stamp):
        with open(summary) as f:
            print(f.read().splitlines()[0])
        return 0
    os.makedirs(args.out, exist_ok=True)
    sources = board_sources(args.src)
    if not sources:
        sys.exit('no .dts under %s/arch/{arm,arm64}/boot/dts' % args.src)
    jobs = max(1, min(args.jobs, 2))
    pre = Prefilter(args.src)
    boards = len(sources)
    sources = [dts for dts in sources if pre.keep(dts)]
    print('opp-corpus: compiling %d boards of %s that name operating-points (of %d)'
          ' with %d processes' % (len(sources), args.src, boards, jobs), file=sys.stderr)
    corpus = Corpus()
    start = time.time()
    with multiprocessing.Pool(jobs) as pool:
        work = [(args.src, dts, args.dtc) for dts in sources]
        for done, (name, result, err) in enumerate(
                pool.imap(compile_board, work, chunksize=8), 1):
            if result is None:
                corpus.failed.append('%s: %s' % (name, ' '.join(err)))
            else:
                corpus.add(name, result)
            if done % 200 == 0 or done == len(sources):
                print('opp-corpus: %d/%d boards (%d s), %d with tables, %d entries'
                      % (done, len(sources), time.time() - start, corpus.boards,
                         len(corpus.entries)), file=sys.stderr)
    corpus.ensure_providers()
    stats = {}
    dtso = os.path.join(args.out, 'opp_of_corpus.dtso')
    tables = corpus.write(dtso + '.tmp', stats)
    # The overlay must compile as the harness will compile it.
    check = subprocess.run([args.dtc, '-@', '-q', '-I', 'dts', '-O', 'dtb', '-o',
                            os.devnull, dtso + '.tmp'],
                           capture_output=True, text=True, check=False)
    if check.returncode:
        sys.exit('opp-corpus: the overlay does not compile:\n' + check.stderr)
    os.replace(dtso + '.tmp', dtso)
    with open(os.path.join(args.out, 'boards.log'), 'w') as f:
        f.write(''.join(line + '\n' for line in sorted(corpus.failed)))
    line = '%d tables from %d boards' % (tables, corpus.boards)
    with open(summary, 'w') as f:
        f.write(line + '\n')
        f.write('%d boards, %d name operating-points: %d compiled, %d did not'
                ' (boards.log)\n' % (boards, len(sources),
                                     len(sources) - len(corpus.failed),
                                     len(corpus.failed)))
        for k in sorted(stats):
            f.write('%s %d\n' % (k, stats[k]))
    with open(stamp, 'w') as f:
        f.write(line + '\n')
    print('opp-corpus: %s in %d s; %s' % (line, time.time() - start, summary),
          file=sys.stderr)
    print(line)
    return 0


if __name__ == '__main__':
    sys.exit(main())
