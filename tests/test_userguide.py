#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""docs/USERGUIDE.md cannot go stale: every element the plugin registers has
a section, and each section's property table lists exactly the element's
properties with the type, default, range and when it can change that
gst-inspect-1.0 prints for it now.

Run: GST_PLUGIN_PATH=build /usr/bin/python3 tests/test_userguide.py [GUIDE]
Print a table to paste: ... tests/test_userguide.py --table clblur
"""
import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
GUIDE = os.path.join(HERE, '..', 'docs', 'USERGUIDE.md')
PLUGIN = 'openclfilters'
SKIP = {'name', 'parent'}  # every GstObject has them
TYPES = {'Double': 'double', 'Float': 'float', 'Integer': 'int', 'Unsigned Integer': 'uint',
         'Integer64': 'int64', 'Unsigned Integer64': 'uint64', 'Boolean': 'bool',
         'String': 'string', 'Enum': 'enum', 'Boxed pointer': 'structure', 'Flags': 'flags'}


def inspect(element):
    return subprocess.run(['gst-inspect-1.0', element], capture_output=True, text=True,
                          check=True).stdout


def plugin_elements():
    out = inspect(PLUGIN)
    return sorted(re.findall(r'^\s+(cl\w+): ', out, re.M))


def parse_inspect(text):
    """{property: {type, default, range, when}} from gst-inspect-1.0 text."""
    props = {}
    body = text.split('Element Properties:')[1]
    blocks = re.split(r'\n  (?=[a-z][\w-]*\s*: )', '\n' + body)
    for block in blocks:
        m = re.match(r'([a-z][\w-]*)\s*: ', block.strip('\n'))
        if not m:
            continue
        lines = block.strip('\n').split('\n')
        flags = next(l for l in lines if 'flags:' in l)
        typeline = lines[lines.index(flags) + 1].strip()
        tname = next((v for k, v in sorted(TYPES.items(), key=lambda kv: -len(kv[0]))
                      if typeline.startswith(k)), typeline.split('.')[0])
        p = {'type': tname, 'default': '', 'range': ''}
        if 'writable' not in flags:
            p['when'] = 'read-only'
        elif 'PLAYING' in flags:
            p['when'] = 'playing'
        elif 'READY' in flags:
            p['when'] = 'ready'
        else:
            p['when'] = 'any'
        if 'controllable' in flags:
            p['when'] += ', controllable'
        r = re.search(r'Range:\s*(\S+)\s*-\s*(\S+)', typeline)
        if r:
            p['range'] = '%s – %s' % (r.group(1), r.group(2))
        d = re.search(r'Default:\s*(.*?)\s*$', typeline)
        if d:
            val = d.group(1)
            if tname == 'enum':
                val = re.search(r'"(.*)"', val).group(1)
                nicks = re.findall(r'\(\d+\):\s*(\S+)', block)
                p['range'] = ', '.join(nicks)
            p['default'] = val.strip('"')
        props[m.group(1)] = p
    return {k: v for k, v in props.items() if k not in SKIP}


def guide_sections(path):
    """{element: {property: row cells}} from the guide's property tables."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    sections = {}
    for m in re.finditer(r'^### `(cl\w+)`(.*?)(?=^### |^## |\Z)', text, re.M | re.S):
        rows = {}
        table = re.search(r'^\| property \| type \| default \| range \| when \|.*?\n((?:\|.*\n?)+)',
                          m.group(2), re.M)
        if table:
            for line in table.group(1).splitlines()[1:]:
                cells = [c.strip().replace('\\|', '|') for c in
                         re.split(r'(?<!\\)\|', line.strip().strip('|'))]
                name = cells[0].strip('`')
                rows[name] = {'type': cells[1], 'default': cells[2].strip('`'),
                              'range': cells[3], 'when': cells[4]}
        sections[m.group(1)] = rows
    return sections


def same_value(a, b):
    try:
        return abs(float(a) - float(b)) <= 1e-9 * max(1.0, abs(float(a)))
    except ValueError:
        return a == b


class UserGuide(unittest.TestCase):
    guide = GUIDE

    def test_every_element_has_a_section(self):
        documented = guide_sections(self.guide)
        for e in plugin_elements():
            self.assertIn(e, documented, '%s has no "### `%s`" section' % (e, e))
            self.assertTrue(documented[e], '%s: no property table' % e)
        for e in documented:
            self.assertIn(e, plugin_elements(), 'the guide documents %s, which does not exist' % e)

    def test_tables_match_gst_inspect(self):
        documented = guide_sections(self.guide)
        for e in plugin_elements():
            live = parse_inspect(inspect(e))
            rows = documented.get(e, {})
            with self.subTest(element=e):
                self.assertEqual(sorted(rows), sorted(live), 'property list differs')
            for name, want in live.items():
                if name not in rows:
                    continue
                got = rows[name]
                with self.subTest(element=e, property=name):
                    self.assertEqual(got['type'], want['type'])
                    self.assertTrue(same_value(got['default'], want['default']),
                                    'default %r, gst-inspect says %r' % (got['default'],
                                                                         want['default']))
                    if want['range'] and '–' in want['range'] and want['type'] != 'enum':
                        lo, hi = (s.strip() for s in got['range'].split('–'))
                        wlo, whi = (s.strip() for s in want['range'].split('–'))
                        self.assertTrue(same_value(lo, wlo) and same_value(hi, whi),
                                        'range %r, gst-inspect says %r' % (got['range'],
                                                                           want['range']))
                    else:
                        self.assertEqual(got['range'], want['range'])
                    self.assertEqual(got['when'], want['when'])

    def test_parser_reads_known_values(self):
        """The parser itself, on a property whose facts are fixed here."""
        p = parse_inspect(inspect('clblur'))['sigma']
        self.assertEqual((p['type'], float(p['default']), p['when']),
                         ('double', 1.0, 'playing, controllable'))
        self.assertEqual(parse_inspect(inspect('clblur'))['device']['when'], 'ready')
        self.assertEqual(parse_inspect(inspect('clhisteq'))['mode']['range'], 'global, clahe')


def print_table(element):
    blurbs = dict(re.findall(r'^  ([a-z][\w-]*)\s*: (.*)$', inspect(element), re.M))
    print('| property | type | default | range | when | meaning |')
    print('|---|---|---|---|---|---|')
    for name, p in sorted(parse_inspect(inspect(element)).items()):
        print('| `%s` | %s | %s | %s | %s | %s |' % (
            name, p['type'], '`%s`' % p['default'] if p['default'] else '', p['range'],
            p['when'], blurbs.get(name, '')))


if __name__ == '__main__':
    if len(sys.argv) > 2 and sys.argv[1] == '--table':
        print_table(sys.argv[2])
        sys.exit(0)
    if len(sys.argv) > 1 and not sys.argv[1].startswith('-'):
        UserGuide.guide = sys.argv.pop(1)
    unittest.main(verbosity=2)
