#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""budget.py LOG: where the time of one make run went, per base.

LOG is what `make check` (or make, make report) printed: one line per
stage ("[12:00:01] build debug-pae ... ok 212.3s", lib/stage) and one
"# NAME: Ns" line per host test (testvm/selftest/run.sh).  Prints a
markdown table: per base, its tree import, its kernels (cold builds and
cached ones alike: a build's time is what it took), its boots, its lint and
its host tests, in seconds of the stage's own clock, and the wall time from
the first stage's start to the last one's end.  Boots and host tests run
two at a time (BOOT_JOBS, SELFTEST_JOBS), so their seconds add up to more
than the wall time they took.

A stage is charged to the base its kernel or cell names (modern/base.sh:
"6.12-..." is 6.12, an unprefixed name the first base's); the host tests,
which boot the first base's kernels, and the mm selftests (6.1's cells)
to the first base; what names no base (deps, the guest programs, the
2005 series' checks) to "shared".
"""

import re
import sys
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAGE = re.compile(r'^\[(\d\d:\d\d:\d\d)\] (.+?)\s+(ok|FAIL)\s+([0-9.]+)s')
START = re.compile(r'^\[(\d\d:\d\d:\d\d)\] (.+?)\s+\.\.\.$')
HOST = re.compile(r'^# ([a-z0-9_]+): (\d+)s$')


def bases():
    text = (ROOT / 'modern' / 'base.sh').read_text()
    m = re.search(r'^BASES="([^"]+)"', text, re.M)
    if not m:
        sys.exit('budget: no BASES= in modern/base.sh')
    return m.group(1).split()


def base_of(name, all_bases):
    if name.startswith('historical-2.6.15'):
        return '2.6.15'
    if name.startswith('historical'):
        return '2.6.14'
    for b in all_bases[1:]:
        if name.startswith(b + '-'):
            return b
    return all_bases[0]


def charge(stage, all_bases):
    """(base, part) of one stage's name"""
    first = all_bases[0]
    words = stage.split()
    kind, rest = words[0], words[1:]
    if kind in ('config', 'build') and rest:
        return base_of(rest[0], all_bases), 'kernels'
    if kind == 'boot' and rest:
        return base_of(rest[0], all_bases), 'boots'
    if kind in ('tree', 'lint') and rest:
        return rest[0].rstrip(':'), 'tree' if kind == 'tree' else 'lint'
    if kind == 'mm':
        return first, 'mm selftests'
    return 'shared', 'other'


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: budget.py LOG (what make check printed)')
    all_bases = bases()
    parts = ['tree', 'kernels', 'boots', 'lint', 'host tests', 'mm selftests', 'other']
    secs = {}
    count = {}
    times = []
    for line in Path(sys.argv[1]).read_text(errors='replace').splitlines():
        m = START.match(line)
        if m:
            times.append(m.group(1))
            continue
        m = STAGE.match(line)
        if m:
            times.append(m.group(1))
            key = charge(m.group(2), all_bases)
            secs[key] = secs.get(key, 0.0) + float(m.group(4))
            if not m.group(2).startswith('config '):
                count[key] = count.get(key, 0) + 1
            continue
        m = HOST.match(line)
        if m:
            key = (all_bases[0], 'host tests')
            secs[key] = secs.get(key, 0.0) + int(m.group(2))
            count[key] = count.get(key, 0) + 1
    if not times:
        sys.exit(f'budget: no stage lines in {sys.argv[1]}: not the output of make')
    rows = sorted({b for b, _ in secs}, key=lambda b: (b == 'shared', b))
    print('| base | ' + ' | '.join(parts) + ' | sum |')
    print('|---' * (len(parts) + 2) + '|')
    for b in rows:
        cells = []
        for p in parts:
            s = secs.get((b, p))
            cells.append('-' if s is None else f'{s:.0f} s ({count.get((b, p), 0)})')
        total = sum(v for (bb, _), v in secs.items() if bb == b)
        print(f'| {b} | ' + ' | '.join(cells) + f' | {total:.0f} s |')
    first = datetime.strptime(times[0], '%H:%M:%S')
    last = datetime.strptime(times[-1], '%H:%M:%S')
    wall = last - first
    if wall < timedelta(0):
        wall += timedelta(days=1)
    print(f'\n(N): stages (kernels: builds; their config stages are in the '
          f'seconds) or host tests.  Wall time, first stage to last: '
          f'{int(wall.total_seconds()) // 60} min {int(wall.total_seconds()) % 60} s')


if __name__ == '__main__':
    main()
