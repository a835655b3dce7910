#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""cell.py: the one reader of testvm/cells/.

A cell is a file of KEY=value lines (comments start with #), one boot of
the matrix:
  KERNEL   a kernel under $BUILD/kernel ([BASE-][stock-]FLAVOUR[-VARIANT],
           modern/kbuild.sh), "historical" (the 2.6.14 one), or a bzImage path
  SMP      vCPUs; MAXCPUS (optional) lists more, hot-pluggable, slots
  MEM      MiB of guest memory
  CPU      QEMU's -cpu
  SWAP_MB  the swap disk, MiB (0: none)
  APPEND   kernel arguments (may be empty)
  MATRIX   optional: "full" keeps the cell out of make check (make matrix)

  cell.py sh CELL      the cell as shell assignments, CELL_KEY='value'
                       (qemu-run.sh evals them)
  cell.py get CELL KEY one value
  cell.py table        one word per cell, NAME=KERNEL=MATRIX=BASE=ARCH
                       (MATRIX "-" when unset; BASE from modern/base.sh,
                       ARCH from lib/kernel.sh), for make

A cell file that lacks a key, has an unknown one or a malformed line is an
error naming the file and the line.
"""
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CELLS = os.path.join(HERE, "cells")
REQUIRED = ("KERNEL", "SMP", "MEM", "CPU", "SWAP_MB", "APPEND")
OPTIONAL = ("MAXCPUS", "MATRIX")
NUMBERS = ("SMP", "MAXCPUS", "MEM", "SWAP_MB")


class CellError(Exception):
    pass


def names():
    return sorted(os.listdir(CELLS))


def load(cell, rundir=None):
    """The cell's keys: as booted (RUNDIR/cell, written by qemu-run.sh, with
    the environment's overrides), else testvm/cells/CELL."""
    path = os.path.join(rundir, "cell") if rundir else ""
    if not os.path.isfile(path):
        path = os.path.join(CELLS, cell)
    if not os.path.isfile(path):
        raise CellError("no cell '%s' (testvm/cells/: %s)" % (cell, " ".join(names())))
    conf = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            key, eq, val = line.partition("=")
            if not eq or key not in REQUIRED + OPTIONAL:
                raise CellError("%s:%d: '%s' is not KEY=value with KEY one of %s"
                                % (path, n, line, " ".join(REQUIRED + OPTIONAL)))
            if key in NUMBERS and not val.isdigit():
                raise CellError("%s:%d: %s wants a number, not '%s'" % (path, n, key, val))
            conf[key] = val
    missing = [k for k in REQUIRED if k not in conf]
    if missing:
        raise CellError("%s: no %s" % (path, ", ".join(missing)))
    return conf


def bases(kernels):
    """modern/base.sh's base_of_kernel and lib/kernel.sh's arch_of_kernel
    for each name, in one shell: (base, arch) pairs."""
    out = subprocess.run(
        ["sh", "-c", 'here=$0; . "$0/../lib/kernel.sh"; . "$0/../modern/base.sh"; '
         'for k; do echo "$(base_of_kernel "$k") $(arch_of_kernel "$k")"; done',
         HERE] + list(kernels), check=True, capture_output=True, text=True).stdout
    return [tuple(line.split()) for line in out.splitlines()]


def main(argv):
    try:
        if len(argv) == 2 and argv[0] == "sh":
            for k, v in load(argv[1]).items():
                print("CELL_%s=%s" % (k, shlex.quote(v)))
        elif len(argv) == 3 and argv[0] == "get":
            print(load(argv[1]).get(argv[2], ""))
        elif argv == ["table"]:
            confs = [(c, load(c)) for c in names()]
            for (c, conf), (b, a) in zip(confs, bases(k["KERNEL"] for _, k in confs)):
                print("%s=%s=%s=%s=%s" % (c, conf["KERNEL"], conf.get("MATRIX") or "-", b, a))
        else:
            sys.exit("usage: cell.py sh CELL | get CELL KEY | table")
    except CellError as e:
        sys.exit("cell: error: %s" % e)


if __name__ == "__main__":
    main(sys.argv[1:])
