#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""cell.py: the one reader of testvm/cells/.

A cell file is KEY=value lines (comments start with #): one configuration
of the matrix, booted once on each base it names:
  KERNEL   a kernel under $BUILD/kernel ([stock-]FLAVOUR[-VARIANT],
           modern/kbuild.sh; its arch is in the name: -x86_64), without the
           base; "historical" (the 2.6.14 one) and its kind; or a bzImage path
  BASES    optional: the bases it runs on, "all" (every base of
           modern/base.sh) or a list; default: the base of KERNEL (6.1, or
           2.6.14 for historical kernels)
  SMP      vCPUs; MAXCPUS (optional) lists more, hot-pluggable, slots
  MEM      MiB of guest memory
  CPU      QEMU's -cpu
  SWAP_MB  the swap disk, MiB (0: none)
  APPEND   kernel arguments (may be empty); APPEND_BASE (optional) adds
           to them on that base
  MATRIX   optional: "full" keeps the cell out of make check (make matrix
           boots it), a list of bases keeps it out on those
  CHECK_ONLY  optional: the tests make check runs in the cell
           (ptltest.only=, with BOOT_SET=check), for a cell whose kernel,
           once it has decided its mode, is a state another cell of make
           check tests in full (split_ptlocks=auto, a bad value): the
           decision is what is its own; make matrix runs every test

Each base gives one cell: FILE on the first base (6.1: no prefix), BASE-FILE
on the others (modern/base.sh's base_prefix), its KERNEL prefixed the same
way.  Adding a base to modern/base.sh adds its cells of every BASES=all file.

  cell.py sh CELL      the cell as shell assignments, CELL_KEY='value'
                       (qemu-run.sh evals them)
  cell.py get CELL KEY one value
  cell.py comments CELL  the file's comment lines
  cell.py table        one word per cell, NAME=KERNEL=MATRIX=BASE=ARCH
                       (MATRIX "full" or "-"; BASE from modern/base.sh,
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
OPTIONAL = ("MAXCPUS", "MATRIX", "BASES", "CHECK_ONLY")
NUMBERS = ("SMP", "MAXCPUS", "MEM", "SWAP_MB")
KEYS = " ".join(REQUIRED + OPTIONAL) + " APPEND_BASE"


class CellError(Exception):
    pass


def shell(script, *args):
    """Run script with lib/kernel.sh and modern/base.sh sourced."""
    return subprocess.run(
        ["sh", "-c", 'here=$0; . "$0/../lib/kernel.sh"; . "$0/../modern/base.sh"; ' + script,
         HERE] + list(args), check=True, capture_output=True, text=True).stdout


_BASES = None


def modern_bases():
    """[(base, prefix)] of modern/base.sh, in its order."""
    global _BASES
    if _BASES is None:
        out = shell('for b in $BASES; do echo "$b $(base_prefix "$b")"; done')
        _BASES = [tuple((line + " ").split(" ")[:2]) for line in out.splitlines()]
    return _BASES


def read_file(path):
    """The file's keys, checked; APPEND_BASE keys kept as they are."""
    conf = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            key, eq, val = line.partition("=")
            if not eq or (key not in REQUIRED + OPTIONAL and not key.startswith("APPEND_")):
                raise CellError("%s:%d: '%s' is not KEY=value with KEY one of %s"
                                % (path, n, line, KEYS))
            if key in NUMBERS and not val.isdigit():
                raise CellError("%s:%d: %s wants a number, not '%s'" % (path, n, key, val))
            conf[key] = val
    missing = [k for k in REQUIRED if k not in conf]
    if missing:
        raise CellError("%s: no %s" % (path, ", ".join(missing)))
    return conf


def expand(fname, conf):
    """{cell name: (base or None, its keys)} of one file; base None: the
    file names no BASES (the cell is the file)."""
    if "BASES" not in conf:
        return {fname: (None, {k: v for k, v in conf.items() if not k.startswith("APPEND_")})}
    known = dict(modern_bases())
    want = list(known) if conf["BASES"] == "all" else conf["BASES"].split()
    matrix = conf.get("MATRIX", "")
    out = {}
    for b in want:
        if b not in known:
            raise CellError("%s: BASES: no base '%s' (modern/base.sh: %s)"
                            % (fname, b, " ".join(known)))
        c = {k: v for k, v in conf.items() if k in REQUIRED + OPTIONAL and k != "BASES"}
        c["KERNEL"] = known[b] + conf["KERNEL"]
        extra = conf.get("APPEND_" + b)
        if extra:
            c["APPEND"] = (c["APPEND"] + " " + extra).strip()
        if matrix == "full" or b in matrix.split():
            c["MATRIX"] = "full"
        else:
            c.pop("MATRIX", None)
        out[known[b] + fname] = (b, c)
    return out


def files():
    return sorted(os.listdir(CELLS))


def cells():
    """{cell name: (file, base or None, keys)} of every file."""
    out = {}
    for f in files():
        for name, (b, c) in expand(f, read_file(os.path.join(CELLS, f))).items():
            if name in out:
                raise CellError("cell %s comes from both %s and %s" % (name, out[name][0], f))
            out[name] = (f, b, c)
    return out


def names():
    return sorted(cells())


def find(cell):
    """(file, keys) of a cell, reading only the files it can come from: the
    file of its name, or of its name without a base's prefix."""
    cands = [cell] + [cell[len(p):] for _, p in modern_bases() if p and cell.startswith(p)]
    for f in cands:
        if os.path.isfile(os.path.join(CELLS, f)):
            got = expand(f, read_file(os.path.join(CELLS, f)))
            if cell in got:
                return f, got[cell][1]
    raise CellError("no cell '%s' (testvm/cells/: %s)" % (cell, " ".join(files())))


def load(cell, rundir=None):
    """The cell's keys: as booted (RUNDIR/cell, written by qemu-run.sh, with
    the environment's overrides), else from testvm/cells/."""
    path = os.path.join(rundir, "cell") if rundir else ""
    if os.path.isfile(path):
        return read_file(path)
    return find(cell)[1]


def comments(cell):
    with open(os.path.join(CELLS, find(cell)[0])) as f:
        return [line.rstrip("\n") for line in f if line.startswith("#")]


def bases(kernels):
    """modern/base.sh's base_of_kernel and lib/kernel.sh's arch_of_kernel
    for each name, in one shell: (base, arch) pairs."""
    out = shell('for k; do echo "$(base_of_kernel "$k") $(arch_of_kernel "$k")"; done',
                *kernels)
    return [tuple(line.split()) for line in out.splitlines()]


def trees(bases_):
    """{base: what its tree is}: for each modern base, the git describe of
    the user's tree it was built from (LINUX_TREE, modern/tree.sh), else its
    base tag (debian-6.1.N); bases without a tree are left out."""
    out = shell('for b; do case " $BASES " in *" $b "*) ;; *) continue ;; esac; '
                '(base_set "$b" && d=$(git -C "$TREE" config ptlock.describe || '
                'git -C "$TREE" config ptlock.base) && '
                'echo "$b $d $(git -C "$TREE" config ptlock.source)") 2>/dev/null; done; true',
                *bases_)
    return {f[0]: (f[1], f[2] if len(f) > 2 else "") for f in
            (line.split(None, 2) for line in out.splitlines()) if len(f) >= 2}


def main(argv):
    try:
        if len(argv) == 2 and argv[0] == "sh":
            for k, v in load(argv[1]).items():
                print("CELL_%s=%s" % (k, shlex.quote(v)))
        elif len(argv) == 3 and argv[0] == "get":
            print(load(argv[1]).get(argv[2], ""))
        elif len(argv) == 2 and argv[0] == "comments":
            for line in comments(argv[1]):
                print(line)
        elif argv == ["table"]:
            every = cells()
            confs = [(c, every[c][2]) for c in sorted(every)]
            for (c, conf), (b, a) in zip(confs, bases(k["KERNEL"] for _, k in confs)):
                print("%s=%s=%s=%s=%s" % (c, conf["KERNEL"], conf.get("MATRIX") or "-", b, a))
        else:
            sys.exit("usage: cell.py sh CELL | get CELL KEY | comments CELL | table")
    except CellError as e:
        sys.exit("cell: error: %s" % e)


if __name__ == "__main__":
    main(sys.argv[1:])
