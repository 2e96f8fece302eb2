#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Render a reStructuredText document of this tree to HTML with docutils.

    rst2html-kdoc.py IN.rst OUT.html

The kernel builds its documentation with Sphinx, whose kernel-doc
extension pulls the comments of a source file into a page. Plain rst2html
knows neither that directive nor the C-domain markup (".. c:function::",
":c:type:") that scripts/kernel-doc emits, so this script teaches docutils
both: ".. kernel-doc:: FILE" runs the kernel tree's scripts/kernel-doc -rst
on FILE (relative to the top of this tree) and parses its output in place;
the C-domain directives render as a signature and a body, the roles as
literals. Everything else is plain docutils, so a page that passes here
also builds inside the kernel's Documentation/ with "make htmldocs".

The kernel tree is $KERNEL_SRC. Every docutils message of level warning or
above, and everything kernel-doc reports on stderr, is printed; the exit
status is 1 if there was any.
"""

import io
import os
import re
import subprocess
import sys

from docutils import nodes
from docutils.core import publish_file
from docutils.parsers.rst import Directive, directives, roles
from docutils.statemachine import StringList

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
problems = []


class KernelDoc(Directive):
    """.. kernel-doc:: FILE, with the options of the kernel's extension."""

    required_arguments = 1
    has_content = False
    option_spec = {
        'export': directives.unchanged,
        'internal': directives.unchanged,
        'functions': directives.unchanged,
        'identifiers': directives.unchanged,
        'no-identifiers': directives.unchanged,
        'doc': directives.unchanged_required,
    }

    def run(self):
        ksrc = os.environ.get('KERNEL_SRC')
        if not ksrc:
            raise self.error('kernel-doc: KERNEL_SRC is not set')
        path = os.path.join(TOP, self.arguments[0])
        if not os.path.isfile(path):
            raise self.error('kernel-doc: no file %s' % self.arguments[0])
        cmd = [os.path.join(ksrc, 'scripts', 'kernel-doc'), '-rst',
               '-sphinx-version', '3.0.0']
        opts = self.options
        if 'export' in opts:
            cmd.append('-export')
        elif 'internal' in opts:
            cmd.append('-internal')
        elif 'doc' in opts:
            cmd += ['-function', opts['doc']]
        for key in ('functions', 'identifiers'):
            for name in (opts.get(key) or '').split():
                cmd += ['-function', name]
        for name in (opts.get('no-identifiers') or '').split():
            cmd += ['-nosymbol', name]
        cmd.append(path)
        res = subprocess.run(cmd, capture_output=True, text=True, check=False)
        for line in res.stderr.splitlines():
            problems.append('%s: kernel-doc: %s' % (self.arguments[0], line))
        if res.returncode != 0 and not res.stderr:
            problems.append('%s: kernel-doc exited with %d'
                            % (self.arguments[0], res.returncode))
        if not res.stdout.strip():
            raise self.error('kernel-doc: nothing extracted from %s'
                             % self.arguments[0])
        lines = StringList(res.stdout.splitlines(), source=path)
        holder = nodes.section()
        holder.document = self.state.document
        self.state.nested_parse(lines, 0, holder, match_titles=True)
        return holder.children


class CObject(Directive):
    """.. c:function:: SIGNATURE (and c:struct, c:enum, ...) with a body."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = {'noindex': directives.flag, 'noindexentry': directives.flag}

    def run(self):
        kind = self.name.split(':')[1]
        text = self.arguments[0]
        if kind in ('struct', 'union', 'enum'):
            text = kind + ' ' + text
        sig = nodes.paragraph()
        sig += nodes.literal(text=text)
        body = nodes.block_quote()
        self.state.nested_parse(self.content, self.content_offset, body)
        return [sig, body] if len(body) else [sig]


class CNamespace(Directive):
    """.. c:namespace-push:: and friends: nothing to show."""

    optional_arguments = 1
    final_argument_whitespace = True

    def run(self):
        return []


def c_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """:c:func:`x`, :c:type:`struct x <x>`: the text, as a literal."""
    shown = re.sub(r'\s*<[^>]*>$', '', text)
    return [nodes.literal(rawtext, shown)], []


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: rst2html-kdoc.py IN.rst OUT.html')
    directives.register_directive('kernel-doc', KernelDoc)
    for kind in ('function', 'type', 'struct', 'union', 'enum', 'macro',
                 'var', 'member', 'enumerator'):
        directives.register_directive('c:' + kind, CObject)
    for kind in ('namespace', 'namespace-push', 'namespace-pop'):
        directives.register_directive('c:' + kind, CNamespace)
    for kind in ('func', 'type', 'macro', 'data', 'expr', 'member', 'enum',
                 'ref', 'doc'):
        roles.register_local_role(('c:' + kind) if kind not in ('ref', 'doc')
                                  else kind, c_role)

    stream = io.StringIO()
    publish_file(source_path=sys.argv[1], destination_path=sys.argv[2],
                 writer_name='html',
                 settings_overrides={'report_level': 2, 'halt_level': 5,
                                     'warning_stream': stream,
                                     'input_encoding': 'utf-8',
                                     'output_encoding': 'utf-8'})
    problems.extend(stream.getvalue().splitlines())
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
