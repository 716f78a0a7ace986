#!/usr/bin/python3
"""Prints one closing line for a meson test run: 'N passed, N failed, N skipped'."""
import json
import sys

counts = {'passed': 0, 'failed': 0, 'skipped': 0}
with open(sys.argv[1]) as f:
    for line in f:
        result = json.loads(line).get('result')
        if result in ('OK', 'EXPECTEDFAIL'):
            counts['passed'] += 1
        elif result == 'SKIP':
            counts['skipped'] += 1
        else:
            counts['failed'] += 1
print('%(passed)d passed, %(failed)d failed, %(skipped)d skipped' % counts)
