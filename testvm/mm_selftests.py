#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The kernel's own mm selftests: each split mode against stock 6.1.

mm_selftests.py SET CELL...

Reads the consoles RUNS/CELL/console.log of 'make mm-selftests' (RUNS
default $BUILD/mm-selftests) with ktap.py's parser and compares each cell
with the stock cell of its kernel (KERNEL=stock-K for a cell of kernel K;
it must be among the CELLs).  A test ok or SKIP on stock and FAIL, or
without a result, in a cell of ours is a difference; a test that fails on
stock too is listed as a failure of stock, not ours.  A cell that did not
complete, or whose console holds a line of testvm/klog-bad.txt, fails.

Writes RESULTS/mm-selftests.json (passed, failed, skipped: the sum 'make
check' prints) and REPORT/mm-selftests.md (the table, the differences,
stock's own failures, and the SKIPs with their reasons); prints the table.
A bad kernel line is charged to the test it was printed in (the guest's
runner reads the kernel log after each), so it counts there, compared with
stock like any failure, and does not break the cell by itself.
Exit status 1 if there is a difference or a broken cell, 2 on bad input.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True	# no __pycache__ in the source tree
import ktap  # noqa: E402  (the parser, and where BUILD is)
from report import verdict  # noqa: E402  (ok, FAIL, SKIP, MISSING or -)

BUILD = ktap.BUILD
ktap.RUNS = os.environ.get("RUNS", os.path.join(BUILD, "mm-selftests"))

RESULTS = os.path.join(BUILD, "results")
REPORT = os.path.join(BUILD, "report")


def die(msg):
    print("mm-selftests: error: %s" % msg, file=sys.stderr)
    sys.exit(2)


def say(diff):
    """A difference (test, cell, verdict, stock cell, its verdict), in words."""
    t, c, v, s, sv = diff
    return "%s: %s in %s, %s in %s" % (t, v, c, sv, s)


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    mmset, cells = sys.argv[1], sys.argv[2:]
    for c in cells:
        if not os.path.isfile(os.path.join(HERE, "cells", c)):
            die("no cell %s in testvm/cells" % c)
    patterns = ktap.bad_patterns()
    res = {c: ktap.parse_cell(c, patterns) for c in cells}
    stock_of = {}
    for c, r in res.items():
        k = r["conf"].get("KERNEL", "")
        if k.startswith("stock-"):
            continue
        s = [x for x in cells if res[x]["conf"].get("KERNEL") == "stock-" + k]
        if not s:
            die("cell %s (kernel %s) has no stock-%s cell to be compared with"
                % (c, k, k))
        stock_of[c] = s[0]

    names = []
    for r in res.values():
        for n in sorted(r["tests"], key=lambda n: r["tests"][n]["num"]):
            if (n.startswith("mm.") or n == "boot_log") and n not in names:
                names.append(n)
    diffs, stock_fail, broken, skips = [], {}, [], {}
    n = {"passed": 0, "failed": 0, "skipped": 0}
    for c in cells:
        r = res[c]
        errors = [e for e in r["errors"] if "bad kernel line" not in e]
        if errors:
            broken.append((c, errors, r["console_bad"][:5]))
            n["failed"] += 1
        for t in names:
            v = verdict(r, t)
            if v == "SKIP":
                skips.setdefault(t, set()).add(r["tests"][t]["directive"][5:])
                n["skipped"] += 1
            elif v == "ok":
                n["passed"] += 1
            elif c in stock_of:
                sv = verdict(res[stock_of[c]], t)
                if sv == "FAIL":
                    stock_fail.setdefault(t, []).append(c)
                    n["skipped"] += 1
                elif sv != "-" or v != "-":
                    diffs.append((t, c, v, stock_of[c], sv))
                    n["failed"] += 1
            elif v == "FAIL":
                stock_fail.setdefault(t, []).append(c)
                n["skipped"] += 1

    w = max(len(t) for t in names + ["test"]) + 2
    cw = max(len(c) for c in cells) + 2
    rows = ["%-*s" % (w, "test") + "".join("%-*s" % (cw, c) for c in cells)]
    for t in names:
        rows.append("%-*s" % (w, t) + "".join("%-*s" % (cw, verdict(res[c], t))
                                             for c in cells))
    table = "\n".join(rows)
    print(table)

    md = ["# The kernel's mm selftests, set '%s': our modes against stock" % mmset, "",
          "Written by testvm/mm_selftests.py from the consoles in %s." %
          ktap.RUNS, "", "```", table, "```", ""]
    md += ["## Differences (ok on stock, not in ours)", ""]
    md += ["- %s" % say(d) for d in diffs] or ["None."]
    md += ["", "## Cells that did not complete", ""]
    md += ["- %s: %s%s" % (c, "; ".join(e), "".join("\n  `%s`" % l for l in bad))
           for c, e, bad in broken] or ["None."]
    md += ["", "## Failing on stock 6.1 too (not counted against the series)", ""]
    md += ["- %s: %s" % (t, ", ".join(cs)) for t, cs in sorted(stock_fail.items())] \
        or ["None."]
    md += ["", "## Skipped, and why", ""]
    md += ["- %s: %s" % (t, " / ".join(sorted(r))) for t, r in sorted(skips.items())] \
        or ["None."]
    os.makedirs(RESULTS, exist_ok=True)
    os.makedirs(REPORT, exist_ok=True)
    with open(os.path.join(REPORT, "mm-selftests.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(RESULTS, "mm-selftests.json"), "w") as f:
        json.dump(dict(n, cells=cells, set=mmset, differences=diffs,
                       stock_failures=stock_fail), f, indent=1)
    for d in diffs:
        print("DIFFERENCE %s" % say(d))
    for c, e, _ in broken:
        print("BROKEN %s: %s" % (c, "; ".join(e)))
    for t, cs in sorted(stock_fail.items()):
        print("fails on stock too: %s (%s)" % (t, ", ".join(cs)))
    print("mm selftests: %(passed)d passed, %(failed)d failed, %(skipped)d skipped"
          % n + " (%s)" % os.path.join(REPORT, "mm-selftests.md"))
    return 1 if diffs or broken else 0


if __name__ == "__main__":
    sys.exit(main())
