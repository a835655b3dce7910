#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The differential report: one suite on every kernel and mode, side by side.

report.py [--results DIR] [--out DIR]

Reads DIR/summary.json (the cells of the last 'make run', written by
ktap.py) and each DIR/CELL.json; writes OUT/report.md, OUT/report.json and
OUT/report.png (gnuplot: the locks the faults of lockstat_ptlock took, per
cell).

Differences head the report: a test ok in one cell and FAIL, or without a
result because its cell broke off, in another; a digest, or a user
program's exit status, that differs between cells that ran the test with
the same guest memory (ktap.figure_diffs).  Each difference names both
sides, copies their consoles (the kernel log) to OUT/logs/CELL.log and
quotes the test's lines from them.  A test that fails and is ok in no cell,
and a cell that did not complete, are listed there too.  SKIP - of a
test, or of a whole cell whose JSON says "skip": reason - and "-" (the test
does not exist on that kernel, kunit.* on stock) are not differences, except
a test ok on one base (or arch) and SKIP on another, in cells of the same
mode, that testvm/base-differences.txt (arch-differences.txt) does not
declare.  Bases are compared within one arch.

Exit status: 0 when there is nothing to list at the top, 1 when there is,
2 when the results cannot be read or gnuplot is missing.

  BUILD  where results/ and report/ are by default
  RUNS   the consoles, RUNS/CELL/console.log (default $BUILD/runs)
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True	# no __pycache__ in the source tree
import ktap  # noqa: E402  (the parser: verdict names, figure_diffs, RUNS)

LOCKSTAT = "lockstat_ptlock"
BASE_DIFFS = os.path.join(HERE, "base-differences.txt")
ARCH_DIFFS = os.path.join(HERE, "arch-differences.txt")
LOCK_FIGURES = ("mm_acq", "mm_con", "ptl_acq", "ptl_con")
EXCERPT_MAX = 40


def die(msg):
    print("report: error: %s" % msg, file=sys.stderr)
    sys.exit(2)


def load(results):
    """The cells of the run, in summary.json's order, as ktap.py wrote them."""
    path = os.path.join(results, "summary.json")
    try:
        with open(path) as f:
            names = json.load(f)["cells"]
    except (OSError, ValueError, KeyError) as e:
        die("cannot read the run's cells from %s (%s): run 'make run' first" % (path, e))
    cells = []
    for name in names:
        try:
            with open(os.path.join(results, name + ".json")) as f:
                r = json.load(f)
        except (OSError, ValueError) as e:
            r = {"cell": name, "conf": {}, "tests": {}, "kunit": {},
                 "errors": ["no results (%s)" % e]}
        r.setdefault("conf", {})
        r.setdefault("tests", {})
        r.setdefault("errors", [])
        cells.append(r)
    # 2.6.14, 6.1 or 6.12: the base of the kernel each booted (modern/base.sh),
    # and its arch, i386 or x86_64 (lib/kernel.sh)
    for r, (b, a) in zip(cells, ktap.cellfile.bases(r["conf"].get("KERNEL", "?")
                                                    for r in cells)):
        r["base"], r["arch"] = b, a
    return cells


def complete(r):
    """Whether the runner in this cell got to the end of its plan."""
    ours = [n for n in r["tests"] if not n.startswith("kunit.")]
    return bool(r.get("done")) and r.get("plan") == len(ours)


def verdict(r, test):
    """One table entry: ok, FAIL, SKIP, MISSING (the cell broke off before
    it) or - (not run there)."""
    if r.get("skip"):
        return "SKIP"
    t = r["tests"].get(test)
    if t:
        return ktap.VERDICT[t["verdict"]]
    if not complete(r) and not test.startswith("kunit."):
        return "MISSING"
    return "-"


def test_names(cells):
    names = []
    for r in cells:
        for n in sorted(r["tests"], key=lambda n: r["tests"][n]["num"]):
            if n not in names:
                names.append(n)
    return names


def console(runs, cell):
    try:
        with open(os.path.join(runs, cell, "console.log"), errors="replace") as f:
            return [l.rstrip("\r\n") for l in f]
    except OSError:
        return None


def excerpt(lines, rng, test):
    """The console lines that belong to test: rng, the first and last line of
    its block as ktap.py found them (for kunit.SUITE, the suite's subtest
    block); without one, the end of the console."""
    if lines is None:
        return ["(no console log)"]
    if rng:
        return lines[rng[0]:rng[1] + 1][-EXCERPT_MAX:]
    return ["(no result line for %s; the console ends:)" % test] + lines[-20:]


class Report:
    def __init__(self, cells, runs, out):
        self.cells = cells
        self.runs = runs
        self.out = out
        self.ran = [r for r in cells if not r.get("skip")]
        self.names = test_names(cells)
        self.consoles = {}
        self.attached = []

    def attach(self, cell, test):
        """Copy cell's console to logs/ (once); return its link and the
        lines of test."""
        if cell not in self.consoles:
            self.consoles[cell] = console(self.runs, cell)
            if self.consoles[cell] is not None:
                os.makedirs(os.path.join(self.out, "logs"), exist_ok=True)
                shutil.copyfile(os.path.join(self.runs, cell, "console.log"),
                                os.path.join(self.out, "logs", cell + ".log"))
                self.attached.append(cell)
        link = "logs/%s.log" % cell if self.consoles[cell] is not None else None
        rng = next(r for r in self.cells if r["cell"] == cell)["tests"].get(test, {}).get("lines")
        return {"cell": cell, "log": link, "excerpt": excerpt(self.consoles[cell], rng, test)}

    def conf(self, cell):
        return next(r["conf"] for r in self.cells if r["cell"] == cell)

    def differences(self):
        diffs, failing = [], []
        for test in self.names:
            v = {r["cell"]: verdict(r, test) for r in self.ran}
            ok = [c for c in v if v[c] == "ok"]
            bad = [c for c in v if v[c] in ("FAIL", "MISSING")]
            if bad and ok:
                # the other side: an ok cell with the same kernel, else memory
                k, m = self.conf(bad[0]).get("KERNEL"), self.conf(bad[0]).get("MEM")
                other = sorted(ok, key=lambda c: (self.conf(c).get("KERNEL") != k,
                                                  self.conf(c).get("MEM") != m))[0]
                diffs.append({"kind": "verdict", "test": test,
                              "sides": {c: v[c] for c in bad + ok},
                              "logs": [self.attach(c, test) for c in bad + [other]]})
            elif any(v[c] == "FAIL" for c in bad):	# MISSING alone: the cell's error
                failing.append({"test": test, "cells": {c: v[c] for c in bad},
                                "logs": [self.attach(c, test) for c in bad]})
        for kind in ("digest", "exit"):
            for (test, mem), per in sorted(ktap.figure_diffs(self.ran, kind).items()):
                first = {}
                for c in sorted(per):
                    first.setdefault(per[c], c)
                diffs.append({"kind": kind, "test": test, "mem": mem, "sides": per,
                              "logs": [self.attach(c, test) for c in first.values()]})
        return diffs, failing

    def skips(self):
        rows = {}
        for r in self.cells:
            if r.get("skip"):
                rows.setdefault(("(every test)", "cell skipped: " + r["skip"]), []).append(r["cell"])
                continue
            for test in self.names:
                t = r["tests"].get(test)
                if t and t["verdict"] in ("skip", "xfail"):
                    reason = re.sub(r"^SKIP\s*", "", t.get("directive") or "")
                    rows.setdefault((test, reason), []).append(r["cell"])
        return [{"test": t, "reason": why, "cells": c} for (t, why), c in rows.items()]

    def figures(self, test):
        """Figures the same in every cell, and those that vary."""
        vals = {}
        for r in self.ran:
            t = r["tests"].get(test)
            for k, v in (t["figures"] if t else {}).items():
                if k != "digest":
                    vals.setdefault(k, {})[r["cell"]] = v
        same, vary = [], []
        for k, per in vals.items():
            if len(set(per.values())) == 1:
                same.append("%s=%s" % (k, next(iter(per.values()))))
            elif all(re.fullmatch(r"-?\d+", v) for v in per.values()):
                lo = min(per, key=lambda c: int(per[c]))
                hi = max(per, key=lambda c: int(per[c]))
                vary.append("%s %s (%s) .. %s (%s)" % (k, per[lo], lo, per[hi], hi))
            else:
                by = {}
                for c in per:
                    by.setdefault(per[c], []).append(c)
                vary.append("%s: %s" % (k, "; ".join(
                    "%s in %s" % (v, ", ".join(cs)) for v, cs in sorted(by.items()))))
        return same, vary

    def lockstat(self):
        rows = []
        for r in self.ran:
            f = r["tests"].get(LOCKSTAT, {}).get("figures", {})
            if all(k in f for k in LOCK_FIGURES):
                rows.append([r["cell"], f.get("mode", "?")] + [int(f[k]) for k in LOCK_FIGURES])
        return rows


MODES = ("stock", "on", "off", "auto", "default", "bad")


def cell_mode(r):
    """stock (also 2.6.14 before the series), the split_ptlocks= mode the
    cell asked for (2.6.14's: ptltest.split_built=), default without one, bad for
    a value the kernel must refuse; PAE kernels' with " PAE", x86_64 cells'
    with " x86_64" (so that bases are compared within one arch)."""
    k = r["conf"].get("KERNEL", "")
    # 2.6.14's mode is built in (NR_CPUS): the cell says which it expects
    key = "ptltest.split_built" if k.startswith("historical") else "split_ptlocks"
    m = re.search(r"(?:^|\s)%s=(\S+)" % re.escape(key), r["conf"].get("APPEND", ""))
    if "stock-" in k or k == "historical-before":
        mode = "stock"
    else:
        mode = m.group(1) if m else "default"
    mode = mode if mode in MODES else "bad"
    return mode + (" PAE" if "pae" in k.split("-") else "") + (
        " x86_64" if r.get("arch") == "x86_64" else "")


def side_by_side(rep, cells):
    """Per test, per base and mode: the verdicts of its cells, in one word
    each where they agree."""
    groups = {}
    for r in cells:
        groups.setdefault((r["base"], cell_mode(r)), []).append(r)
    order = sorted(groups, key=lambda g: ([int(x) for x in g[0].split(".")],
                                          MODES.index(g[1].split()[0]), g[1]))
    rows = []
    for test in rep.names:
        row = []
        for g in order:
            vs = sorted({verdict(r, test) if not r.get("skip") else "SKIP" for r in groups[g]})
            row.append(vs[0] if len(vs) == 1 else "/".join(vs))
        rows.append((test, row))
    return ["%s %s (%d)" % (b, m, len(groups[(b, m)])) for b, m in order], rows


def expected_diffs(path=BASE_DIFFS):
    """{(test, base or arch): reason} from testvm/base-differences.txt (or
    arch-differences.txt)."""
    out = {}
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                test, base, reason = line.rstrip("\n").split(None, 2)
                out[(test, base)] = reason
    return out


def skip_diffs(rep, cells, expected, kind):
    """Tests ok on one side and SKIP on another, in cells of one group, that
    the declarations (expected_diffs()) do not name.  kind "base": sides are
    the bases, a group the cells of one mode (cell_mode(): within one arch);
    "arch": sides are the arches, a group one base and split mode."""
    groups = {}
    for r in cells:
        if r.get("skip"):
            continue
        if kind == "base":
            group, side = cell_mode(r), r["base"]
        else:	# PAE or not: i386 either way
            group, side = "%s %s" % (r["base"], cell_mode(r).split()[0]), r.get("arch", "i386")
        groups.setdefault(group, {}).setdefault(side, []).append(r)
    diffs = []
    for test in rep.names:
        for group, sides in sorted(groups.items()):
            seen = {s: {verdict(r, test) for r in rs} for s, rs in sides.items()}
            if not any("ok" in v for v in seen.values()):
                continue
            for s, v in sorted(seen.items()):
                if v == {"SKIP"} and (test, s) not in expected:
                    diffs.append({"kind": kind, "test": test, "mode": group,
                                  "sides": {ss: "/".join(sorted(vv)) for ss, vv in seen.items()},
                                  "logs": [rep.attach(sides[s][0]["cell"], test)]})
    return diffs


def ptl_diffs(cells, ptl):
    """2.6.14 cells whose built-in mode is not the lock historical/build.sh ptl
    found in their kernel's fault path: the page-table page's when split on,
    the mm's page_table_lock when off or before the series."""
    took = dict(l.split(": ", 1) for l in ptl if ": " in l)
    diffs = []
    for r in cells:
        k = r["conf"].get("KERNEL", "")
        if r.get("skip") or not k.startswith("historical"):
            continue
        mode = cell_mode(r)
        # on: the page-table page's lock, in page->private (the 2005
        # series) or page->u.ptl (2.6.15)
        want = ("->private", "->u.ptl") if mode == "on" else ("page_table_lock",)
        if not any(w in took.get(k, "") for w in want):
            diffs.append({"kind": "ptl", "test": "fault path lock", "mode": mode,
                          "sides": {r["cell"]: took.get(k, "no historical/build.sh ptl line for %s" % k)},
                          "logs": []})
    return diffs


def cell_row(r):
    cmd = r.get("cmdline", "")
    args = cmd.split(" ", 1)[1] if " " in cmd else r["conf"].get("APPEND", "")
    mode = r["tests"].get("ptlock_mode", {}).get("figures", {}).get("mode", "-")
    if r.get("skip"):
        status = "SKIP: " + r["skip"]
    elif r["errors"]:
        status = "FAIL: " + "; ".join(r["errors"])
    else:
        n = [t["verdict"] for t in r["tests"].values()]
        status = "ok (%d ok, %d FAIL, %d SKIP)" % (n.count("ok"), n.count("fail"), n.count("skip"))
    c = r["conf"]
    return {"cell": r["cell"], "kernel": c.get("KERNEL", "?"), "vcpus": c.get("SMP", "?"),
            "mem": c.get("MEM", "?"), "args": args.strip(), "mode": mode, "status": status}


def plot(rows, out):
    """report.png from rows [cell, mode, mm_acq, mm_con, ptl_acq, ptl_con]."""
    dat = os.path.join(out, "report.dat")
    with open(dat, "w") as f:
        f.write("# cell mode mm_acq mm_con ptl_acq ptl_con\n")
        for row in rows:
            f.write(" ".join(str(x) for x in row) + "\n")
    gp = os.path.join(out, "report.gp")
    with open(gp, "w") as f:
        f.write("""set terminal png size 1000,800 noenhanced
set output "%s"
set multiplot layout 2,1 title "lock_stat during lockstat_ptlock: 4 threads first-touch 8 MiB, per cell (mode seen)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics scale 0 rotate by -25 font ",9"
set yrange [0:*]
set key outside top center horizontal
set bmargin 5
set ylabel "acquisitions"
plot "%s" using 3:xtic(stringcolumn(1)." (".stringcolumn(2).")") title "&mm->page_table_lock", \\
     "" using 5 title "ptlock_ptr() (split)"
set ylabel "contentions"
plot "%s" using 4:xtic(stringcolumn(1)." (".stringcolumn(2).")") title "&mm->page_table_lock", \\
     "" using 6 title "ptlock_ptr() (split)"
unset multiplot
""" % (os.path.join(out, "report.png"), dat, dat))
    p = subprocess.run(["gnuplot", gp], capture_output=True, text=True)
    if p.returncode:
        die("gnuplot %s failed: %s" % (gp, p.stderr.strip()))
    return "report.png"


def code(lines):
    return ["    " + l for l in lines]


def markdown(rep, diffs, failing, skips, cells, lock, png, ptl=()):
    md = ["# Differential report", ""]
    md.append("The same suite booted in %d cells (kernel, vCPUs, `split_ptlocks=` mode; "
              "[Cells](#cells)), %d tests. A difference is a test whose verdict, digest "
              "or exit status is not the same in every cell that ran it; SKIP and `-` "
              "(the test does not exist on that kernel) are not." % (len(cells), len(rep.names)))
    trees = ktap.cellfile.trees(sorted({r["base"] for r in cells}))
    if trees:
        md += ["", "The trees, per base:", ""] + ["- %s: %s" % (b, "`%s`, the tree at %s" % (d, src) if src else "`%s`" % d)
                      for b, (d, src) in sorted(trees.items())]
    md += ["", "## Differences", ""]
    broken = [r for r in rep.ran if r["errors"]]
    if not diffs:
        md.append("None: every test got the same verdict in every cell that ran it, "
                  "and the same digest in every cell with the same guest memory.")
    for d in diffs:
        if d["kind"] == "ptl":
            md.append("- **%s**: built %s, but the fault path takes: %s" % (
                d["test"], d["mode"], ", ".join("%s `%s`" % i for i in sorted(d["sides"].items()))))
        elif d["kind"] in ("arch", "base"):
            md.append("- **%s**: SKIP on one %s, ok on another, in %s cells, and not "
                      "declared in testvm/%s-differences.txt: %s" % (
                          d["test"], d["kind"], d["mode"], d["kind"],
                          ", ".join("%s %s" % i for i in sorted(d["sides"].items()))))
        elif d["kind"] == "verdict":
            groups = {}
            for c, v in d["sides"].items():
                groups.setdefault(v, []).append(c)
            what = "; ".join("%s in %s" % (v, ", ".join(cs)) for v, cs in sorted(groups.items()))
            md.append("- **%s**: verdict differs: %s" % (d["test"], what))
        else:
            md.append("- **%s**: %s differs between cells with MEM=%s: %s" % (
                d["test"], d["kind"], d["mem"],
                ", ".join("%s %s" % (c, v) for c, v in sorted(d["sides"].items()))))
        md += log_lines(d["logs"])
    if failing:
        md += ["", "### Failing, and ok in no cell", ""]
        for f in failing:
            md.append("- **%s**: %s" % (f["test"], ", ".join(
                "%s in %s" % (v, c) for c, v in f["cells"].items())))
            md += log_lines(f["logs"])
    if broken:
        md += ["", "### Cells that did not complete or logged a bad kernel line", ""]
        for r in broken:
            md.append("- **%s**: %s" % (r["cell"], "; ".join(r["errors"])))
            for line in r.get("console_bad", [])[:10]:
                md.append("    " + line)
    md += ["", "## Skips", ""]
    if skips:
        md += ["| test | cells | reason |", "|---|---|---|"]
        for s in skips:
            md.append("| %s | %s | %s |" % (s["test"], ", ".join(s["cells"]), s["reason"]))
    else:
        md.append("None.")
    md += ["", "## Verdicts", "",
           "One column per cell; `digest` is the content the test verified (its output, "
           "for a user program): one value when all cells agree, one per guest memory "
           "size (MEM, MiB) where the sizes differ."
           " MISSING: the cell broke off before the test.", ""]
    names = [r["cell"] for r in cells]
    md.append("| test | " + " | ".join(names) + " | digest |")
    md.append("|---" * (len(names) + 2) + "|")
    differs = {(d["test"]) for d in diffs if d["kind"] == "digest"}
    for test in rep.names:
        row, digests = [], {}
        for r in cells:
            v = verdict(r, test)
            dg = r["tests"].get(test, {}).get("figures", {}).get("digest")
            if dg:
                digests.setdefault(r["conf"].get("MEM"), set()).add(dg)
            if test in differs and dg:
                v += " `%s`" % dg
            row.append("**%s**" % v if v.split()[0] in ("FAIL", "MISSING") else v)
        if test in differs:
            dcol = "DIFFERS"
        elif len(set().union(*digests.values())) == 1:
            dcol = "`%s`" % next(iter(digests.values())).pop()
        else:
            dcol = ", ".join("`%s` (MEM=%s)" % (d.pop(), m) for m, d in sorted(digests.items()))
        md.append("| %s | %s | %s |" % (test, " | ".join(row), dcol))
    heads, rows = side_by_side(rep, cells)
    md += ["", "## Bases side by side", "",
           "The same tests on each kernel: 2.6.14 before and after the 2005 series "
           "(historical/), 2.6.15 as released, Debian's 6.1 and 6.12, "
           "stock and with the series in each `split_ptlocks=` mode; a column is every "
           "cell of that base and mode (how many in brackets), a word where they agree. "
           "Digests are compared across bases in the table above. A test that runs on "
           "one base and not on another is a difference unless "
           "testvm/base-differences.txt declares it; declared here:", ""]
    md += ["- %s on %s: %s" % (t, b, why) for (t, b), why in sorted(expected_diffs().items())]
    md += ["", "x86_64 cells have columns of their own; a test that runs on one arch and "
           "not on the other, in cells of the same base and mode, is a difference unless "
           "testvm/arch-differences.txt declares it; declared here:", ""]
    md += ["- %s on %s: %s" % (t, a, why)
           for (t, a), why in sorted(expected_diffs(ARCH_DIFFS).items())]
    md += ["",
           "| test | " + " | ".join(heads) + " |", "|---" * (len(heads) + 1) + "|"]
    for test, row in rows:
        md.append("| %s | %s |" % (test, " | ".join(row)))
    md += ["", "## Figures", "",
           "The `# test: key=value` figures: those equal in every cell, and the range of "
           "those that vary (the cells of the lowest and highest value).", "",
           "| test | same in every cell | varies |", "|---|---|---|"]
    for test in rep.names:
        same, vary = rep.figures(test)
        if same or vary:
            md.append("| %s | %s | %s |" % (test, " ".join(same), "<br>".join(vary)))
    md += ["", "## Which lock the faults took", ""]
    if lock:
        md.append("`%s` clears `/proc/lock_stat`, lets 4 threads first-touch 8 MiB "
                  "(2048 pages) and reads the two lock classes back. With the split, "
                  "the faults take the page-table page's lock and contend there; "
                  "without it, the mm's `page_table_lock`." % LOCKSTAT)
        md += ["", "![lock_stat per cell](%s)" % png, "",
               "| cell | mode | page_table_lock acq | con | ptlock acq | con |",
               "|---|---|---|---|---|---|"]
        for row in lock:
            md.append("| " + " | ".join(str(x) for x in row) + " |")
    else:
        md.append("No cell has `%s` figures (no lock_stat kernel ran it): no plot." % LOCKSTAT)
    if ptl:
        md += ["", "2.6.14 and 2.6.15 have no lock_stat. The lock their fault path takes, "
               "as the preprocessor spells it for each kernel built "
               "(`historical/build.sh ptl`): the page-table page's `private` "
               "(2.6.15: `u.ptl`) when split, the mm's `page_table_lock` otherwise.",
               "", "```"]
        md += list(ptl) + ["```"]
    md += ["", "## Cells", "",
           "| cell | kernel | vCPUs | MEM | command line | mode seen | result |",
           "|---|---|---|---|---|---|---|"]
    for c in map(cell_row, cells):
        c["args"] = "`%s`" % c["args"] if c["args"] else "(none)"
        md.append("| %(cell)s | %(kernel)s | %(vcpus)s | %(mem)s | %(args)s | %(mode)s | %(status)s |" % c)
    return "\n".join(md) + "\n"


def log_lines(logs):
    md = []
    for l in logs:
        link = "[%s](%s)" % (l["log"], l["log"]) if l["log"] else "no console log"
        md.append("  - %s, %s:" % (l["cell"], link))
        md.append("")
        md += ["    " + x for x in code(l["excerpt"])]
        md.append("")
    return md


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results", default=os.path.join(ktap.BUILD, "results"))
    ap.add_argument("--out", default=os.path.join(ktap.BUILD, "report"))
    args = ap.parse_args()
    if not shutil.which("gnuplot"):
        die("gnuplot not found (apt-get install gnuplot-nox)")

    cells = load(args.results)
    os.makedirs(args.out, exist_ok=True)
    shutil.rmtree(os.path.join(args.out, "logs"), ignore_errors=True)
    for f in ("report.png", "report.dat", "report.gp"):
        if os.path.exists(os.path.join(args.out, f)):
            os.remove(os.path.join(args.out, f))
    rep = Report(cells, ktap.RUNS, args.out)
    diffs, failing = rep.differences()
    diffs += skip_diffs(rep, cells, expected_diffs(), "base")
    diffs += skip_diffs(rep, cells, expected_diffs(ARCH_DIFFS), "arch")
    ptl_file = os.path.join(args.results, "historical-ptl.txt")
    ptl = open(ptl_file).read().splitlines() if os.path.exists(ptl_file) else []
    diffs += ptl_diffs(cells, ptl)
    skips = rep.skips()
    lock = rep.lockstat()
    png = plot(lock, args.out) if lock else None
    broken = [r for r in rep.ran if r["errors"]]

    with open(os.path.join(args.out, "report.md"), "w") as f:
        f.write(markdown(rep, diffs, failing, skips, cells, lock, png, ptl))
    tests = {}
    for test in rep.names:
        tests[test] = {r["cell"]: {"verdict": verdict(r, test),
                                   "figures": r["tests"].get(test, {}).get("figures", {})}
                       for r in cells}
    with open(os.path.join(args.out, "report.json"), "w") as f:
        json.dump({"cells": [cell_row(r) for r in cells], "tests": tests,
                   "differences": diffs, "failing": failing,
                   "cell_errors": {r["cell"]: r["errors"] for r in broken},
                   "skips": skips, "lockstat": lock, "plot": png}, f, indent=1)

    for d in diffs:
        print("report: %s differs: %s" % (d["test"], d["kind"]) + ": " +
              ", ".join("%s %s" % i for i in sorted(d["sides"].items())))
    for fl in failing:
        print("report: %s fails, ok in no cell" % fl["test"])
    for r in broken:
        print("report: cell %s: %s" % (r["cell"], "; ".join(r["errors"])))
    print("report: %d difference(s), %d test(s) ok nowhere, %d broken cell(s): %s" %
          (len(diffs), len(failing), len(broken), os.path.join(args.out, "report.md")))
    return 1 if diffs or failing or broken else 0


if __name__ == "__main__":
    sys.exit(main())
