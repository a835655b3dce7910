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

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
import cell  # noqa: E402  (it asks modern/base.sh, the one place that knows the names)

STAGE = re.compile(r'^\[(\d\d:\d\d:\d\d)\] (.+?)\s+(ok|FAIL)\s+([0-9.]+)s')
START = re.compile(r'^\[(\d\d:\d\d:\d\d)\] (.+?)\s+\.\.\.$')
HOST = re.compile(r'^# ([a-z0-9_]+): (\d+)s$')


def bases_of(names):
    """{kernel or cell name: its base}: a cell's is its kernel's (cell.py),
    a kernel's what modern/base.sh's base_of_kernel says"""
    names = sorted(set(names))
    every = cell.cells()
    kernels = [every[n][2]['KERNEL'] if n in every else n for n in names]
    return {n: b for n, (b, _) in zip(names, cell.bases(kernels))}


def part(stage):
    """(the name that says the base, or None; part) of one stage's name"""
    words = stage.split()
    kind, rest = words[0], words[1:]
    if kind in ('config', 'build') and rest:
        return rest[0], 'kernels'
    if kind == 'boot' and rest:
        return rest[0], 'boots'
    if kind in ('tree', 'lint') and rest:
        return None, 'tree' if kind == 'tree' else 'lint'
    if kind == 'mm':
        return None, 'mm selftests'
    return None, 'other'


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: budget.py LOG (what make check printed)')
    first = cell.modern_bases()[0][0]
    parts = ['tree', 'kernels', 'boots', 'lint', 'host tests', 'mm selftests', 'other']
    stages = []
    host = []
    times = []
    for line in Path(sys.argv[1]).read_text(errors='replace').splitlines():
        m = START.match(line)
        if m:
            times.append(m.group(1))
            continue
        m = STAGE.match(line)
        if m:
            times.append(m.group(1))
            stages.append((m.group(2), float(m.group(4))))
            continue
        m = HOST.match(line)
        if m:
            host.append(int(m.group(2)))
    if not times:
        sys.exit(f'budget: no stage lines in {sys.argv[1]}: not the output of make')
    named = bases_of(n for n, _ in (part(st) for st, _ in stages) if n)
    secs = {}
    count = {}

    def add(key, value, counted):
        secs[key] = secs.get(key, 0.0) + value
        if counted:
            count[key] = count.get(key, 0) + 1

    for stage, value in stages:
        name, p = part(stage)
        if name:
            base = named[name]
        elif p in ('tree', 'lint'):
            base = stage.split()[1].rstrip(':')
        elif p == 'mm selftests':
            base = first
        else:
            base = 'shared'
        add((base, p), value, not stage.startswith('config '))
    for value in host:
        add((first, 'host tests'), value, True)
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
