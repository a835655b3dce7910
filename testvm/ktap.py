#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Parse the guests' consoles into verdicts: the last stage of 'make run'.

ktap.py [--out DIR] CELL...
ktap.py --total SUMMARY.json...
ktap.py --finished CONSOLE     exit 0 when the runner said it finished

For each cell, reads the run directory $BUILD/runs/CELL that qemu-run.sh
wrote (the cell as booted, console.log),
takes the KTAP the guest runner printed and the "# test: key=value" figures,
and scans the whole console for the lines listed in testvm/klog-bad.txt.
KUnit suites the kernel ran at boot join the table as "kunit.SUITE".
Each test keeps "lines": [first, last], the 0-based indices (both
included) of its console lines, from its first diagnostic to its result.
A bug of a base kernel itself that a test meets is declared in
testvm/base-bugs.txt: where it shows as declared the test is XFAIL
(counted as skipped, never as passed); where it does not, the cell fails.
A cell whose run directory holds a file "skip" was not booted (its kernel
was not built; the file says why): it is reported SKIP, counted once as
skipped, never as passed.
Writes DIR/CELL.json and DIR/summary.json, prints the verdict table and a
closing "N passed, N failed" line.  Exit status 1 if any cell is incomplete
(hang, panic, missing plan or result), any test is not ok, the console holds
a bad line, or one test's digest differs between cells that ran it with the
same guest memory.
"""
import argparse
import json
import os
import re
import sys

sys.dont_write_bytecode = True	# no __pycache__ in the source tree
import cell as cellfile  # noqa: E402  (the one reader of testvm/cells/)

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.environ.get("BUILD", os.path.join(HERE, "..", "build"))
RUNS = os.environ.get("RUNS", os.path.join(BUILD, "runs"))	# CELL/console.log

RESULT = re.compile(r"^(ok|not ok) (\d+) (\S+)(?: # (.*))?$")
# KUnit suites run at boot print KTAP through printk: top-level results
KUNIT = re.compile(r"^\[\s*[\d.]+\] (ok|not ok) (\d+) (\w+)(?: # (.*))?$")
PLAN = re.compile(r"^1\.\.(\d+)$")
SUBTEST = re.compile(r"# Subtest: (\w+)$")
# "# NAME: ..."; the user's programs are extra.PROG, PROG with .+- in it
DIAG = re.compile(r"^# ([\w.+-]+): (.*)$")
KV = re.compile(r"(\w+)=(\S+)")
DONE = "# ptltest: done"	# the runner's last line (init.c prints it)
VERDICT = {"ok": "ok", "fail": "FAIL", "skip": "SKIP",	# as the tables show them
           "xfail": "XFAIL"}
KLOG_FAIL = re.compile(r"^FAIL kernel log has \d+ bad line")	# init.c's note


def bad_patterns():
    """(bad, not_bad) substrings of klog-bad.txt: not_bad are its '!' lines"""
    with open(os.path.join(HERE, "klog-bad.txt")) as f:
        lines = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
    return ([l for l in lines if not l.startswith("!")],
            [l[1:] for l in lines if l.startswith("!")])


def is_bad(line, patterns):
    bad, not_bad = patterns
    return any(p in line for p in bad) and not any(p in line for p in not_bad)


def base_bugs(path=os.path.join(HERE, "base-bugs.txt")):
    """testvm/base-bugs.txt: [(KERNEL, TEST, SIGNATURE, why)]"""
    bugs = []
    with open(path) as f:
        for l in f:
            if l.strip() and not l.startswith("#"):
                kernel, test, sig, why = l.split(None, 3)
                bugs.append((kernel, test, sig, why.strip()))
    return bugs


def expect_base_bugs(res, lines, bad_at, bugs):
    """A declared bug of the base kernel: its test must fail on the kernel
    log alone, every bad line of its block being the declared warning (or
    the "cut here" line before it); it becomes XFAIL and its lines leave
    console_bad.  Passing, or failing otherwise, is an error of the cell."""
    excused = set()
    for kernel, test, sig, why in bugs:
        t = res["tests"].get(test)
        if kernel != res["conf"].get("KERNEL") or not t:
            continue
        first, last = t["lines"]
        mine = [i for i in bad_at if first <= i <= last]
        hits = [i for i in mine if sig in lines[i]]
        if t["verdict"] == "ok":
            res["errors"].append("%s passed: the base bug base-bugs.txt declares for it "
                                 "(%s) did not show" % (test, sig))
        elif (t["verdict"] == "fail" and hits and t["notes"] and
              all(KLOG_FAIL.match(n) for n in t["notes"]) and
              all(i in hits or "cut here" in lines[i] for i in mine)):
            t["verdict"] = "xfail"
            t["directive"] = "XFAIL base bug %s: %s" % (sig, why)
            excused.update(mine)
    res["console_bad"] = [lines[i] for i in bad_at if i not in excused]


def parse_cell(cell, patterns, bugs=()):
    rundir = os.path.join(RUNS, cell)
    res = {"cell": cell, "conf": cellfile.load(cell, rundir), "tests": {}, "errors": [],
           "console_bad": [], "plan": None, "done": False, "kunit": {},
           "skip": None}
    try:
        with open(os.path.join(rundir, "skip")) as f:
            res["skip"] = f.read().strip() or "not booted"
        return res
    except FileNotFoundError:
        pass
    try:
        with open(os.path.join(rundir, "cmdline")) as f:
            res["cmdline"] = f.read().strip()
        with open(os.path.join(rundir, "console.log"), errors="replace") as f:
            lines = [l.rstrip("\r\n") for l in f]
    except OSError as e:
        res["errors"].append("no console log: %s" % e)
        return res
    pending = {}
    bad_at = []		# the bad lines' indices
    begin = 0		# the first console line of the next test's block
    subtest = {}	# KUnit suite -> the line of its "# Subtest:"
    for i, line in enumerate(lines):
        if is_bad(line, patterns):
            bad_at.append(i)
        if line == DONE:
            res["done"] = True
            continue
        m = PLAN.match(line)
        if m:
            res["plan"] = int(m.group(1))
            begin = i + 1
            continue
        m = SUBTEST.search(line)
        if m:
            subtest[m.group(1)] = i
        m = DIAG.match(line)
        if m:
            name, text = m.groups()
            d = pending.setdefault(name, {"figures": {}, "notes": []})
            if text.startswith("FAIL"):
                d["notes"].append(text)
            elif text.startswith("out: "):
                pass		# a user program's output: on the console only
            else:
                d["figures"].update(KV.findall(text))
            continue
        m = KUNIT.match(line)
        if m:
            verdict, num, name, directive = m.groups()
            res["kunit"][name] = "ok" if verdict == "ok" else "fail"
            res["tests"]["kunit." + name] = {
                "num": 1000 + int(num), "directive": directive,
                "lines": [subtest.get(name, i), i],
                "verdict": res["kunit"][name], "figures": {},
                "notes": [] if verdict == "ok" else ["KUnit suite failed: see console"]}
            continue
        m = RESULT.match(line)
        if m:
            verdict, num, name, directive = m.groups()
            d = pending.pop(name, {"figures": {}, "notes": []})
            skip = bool(directive and directive.startswith("SKIP"))
            res["tests"][name] = {
                "num": int(num), "lines": [begin, i],
                "verdict": "skip" if (verdict == "ok" and skip) else
                           ("ok" if verdict == "ok" else "fail"),
                "directive": directive, **d}
            begin = i + 1
    expect_base_bugs(res, lines, bad_at, bugs)
    if not lines:
        res["errors"].append("empty console")
    if res["plan"] is None:
        res["errors"].append("no KTAP plan on the console (runner never started)")
    elif len(res["tests"]) - len(res["kunit"]) != res["plan"]:
        res["errors"].append("plan says %d tests, %d results" %
                             (res["plan"], len(res["tests"]) - len(res["kunit"])))
    if not res["done"]:
        res["errors"].append("runner did not finish (hang, panic or crash)")
    if res["console_bad"]:
        res["errors"].append("%d bad kernel line(s) on the console" %
                             len(res["console_bad"]))
    return res


def figure_diffs(results, key):
    """Tests whose figure key differs between cells with the same guest
    memory: {(test, MEM): {cell: value}}."""
    seen = {}
    for r in results:
        for name, t in r["tests"].items():
            v = t["figures"].get(key)
            if v:
                seen.setdefault((name, r["conf"].get("MEM")), {})[r["cell"]] = v
    return {k: v for k, v in seen.items() if len(set(v.values())) > 1}


def digest_diffs(results):
    """Tests whose digest differs between cells with the same guest memory."""
    return figure_diffs(results, "digest")


def table(results, diffs):
    names = []
    for r in results:
        for n in sorted(r["tests"], key=lambda n: r["tests"][n]["num"]):
            if n not in names:
                names.append(n)
    cells = [r["cell"] for r in results]
    w = max([len(n) for n in names] + [len("(cell)")]) + 2
    cw = max([len(c) for c in cells] + [6]) + 2
    out = ["%-*s" % (w, "test") + "".join("%-*s" % (cw, c) for c in cells) + "digest"]
    for n in names:
        row = "%-*s" % (w, n)
        digests = set()
        for r in results:
            t = r["tests"].get(n)
            v = VERDICT[t["verdict"]] if t else "-"
            row += "%-*s" % (cw, v)
            if t and "digest" in t["figures"]:
                digests.add(t["figures"]["digest"])
        if any(k[0] == n for k in diffs):
            row += "DIFFERS"
        else:
            row += ",".join(sorted(digests))
        out.append(row)
    status = "%-*s" % (w, "(cell)")
    for r in results:
        status += "%-*s" % (cw, "SKIP" if r["skip"] else
                            "FAIL" if r["errors"] else "ok")
    out.append(status)
    return "\n".join(out)


def total(paths):
    """The closing line of 'make check': the sum of the summaries given."""
    n = {"passed": 0, "failed": 0, "skipped": 0}
    for p in paths:
        with open(p) as f:
            s = json.load(f)
        for k in n:
            n[k] += s[k]
    print("%(passed)d passed, %(failed)d failed, %(skipped)d skipped" % n)
    return 1 if n["failed"] else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(BUILD, "results"))
    ap.add_argument("--total", action="store_true",
                    help="arguments are summary JSON files: print their sum")
    ap.add_argument("--finished", action="store_true",
                    help="the argument is a console: exit 0 when the runner finished")
    ap.add_argument("cells", nargs="+")
    args = ap.parse_args()
    if args.finished:
        try:
            with open(args.cells[0], errors="replace") as f:
                return 0 if any(l.rstrip("\r\n") == DONE for l in f) else 1
        except OSError:
            return 1
    if args.total:
        return total(args.cells)

    patterns = bad_patterns()
    bugs = base_bugs()
    results = [parse_cell(c, patterns, bugs) for c in args.cells]
    diffs = digest_diffs(results)
    os.makedirs(args.out, exist_ok=True)
    for r in results:
        with open(os.path.join(args.out, r["cell"] + ".json"), "w") as f:
            json.dump(r, f, indent=1)

    print(table(results, diffs))
    passed = failed = skipped = 0
    bad = []        # printed last, beside the summary: a log's tail shows why
    for r in results:
        if r["skip"]:
            skipped += 1
            print("%s: skipped: %s" % (r["cell"], r["skip"]))
        for name, t in sorted(r["tests"].items(), key=lambda i: i[1]["num"]):
            if t["verdict"] == "ok":
                passed += 1
            elif t["verdict"] in ("skip", "xfail"):
                skipped += 1
                print("%s: %s skipped: %s" % (r["cell"], name, t["directive"]))
            else:
                failed += 1
                why = "; ".join(t["notes"]) or "see console"
                bad.append("%s: %s failed: %s" % (r["cell"], name, why))
        for e in r["errors"]:
            failed += 1
            bad.append("%s: %s (%s)" % (r["cell"], e,
                                         os.path.join(RUNS, r["cell"], "console.log")))
        bad += ["    " + line for line in r["console_bad"][:10]]
    for (name, mem), per in sorted(diffs.items()):
        failed += 1
        bad.append("%s: digest differs between cells (MEM=%s): %s" %
                   (name, mem, ", ".join("%s=%s" % i for i in sorted(per.items()))))
    for line in bad:
        print(line)
    summary = {"cells": args.cells, "passed": passed, "failed": failed,
               "skipped": skipped,
               "digest_diffs": ["%s MEM=%s" % k for k in sorted(diffs)]}
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print("guest: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
