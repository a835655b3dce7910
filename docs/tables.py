#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tables.py [--check [PAGE]]: the tables of docs/tests.md, from the sources.

  guest tests  each test's header comment (testvm/guest/tests/NAME.c; the
               runner's own boot_log from init.c): its "Exercises:" and
               "Invariant:" paragraphs; in the order the runner runs them
  host tests   each testvm/selftest/NAME.sh's header comment, and whether it
               boots ("# needs:")
  cells        each testvm/cells/ file (testvm/cell.py): kernel, vCPUs,
               memory, arguments, expected mode, whether make check boots it,
               and its comment

Each table sits between "<!-- make docs: KIND -->" and "<!-- end -->" in
docs/tests.md.  Without --check the page is rewritten (make docs); with it,
the exit status is 1 and the differing table named when the page is not what
the sources say (the host test docs_drift).  A test without both paragraphs
is an error.
"""
import os
import re
import sys

sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "testvm"))
import cell  # noqa: E402  (the one reader of testvm/cells/)

PAGE = os.path.join(ROOT, "docs", "tests.md")
GUEST = os.path.join(ROOT, "testvm", "guest")
HOST = os.path.join(ROOT, "testvm", "selftest")


def die(msg):
    sys.exit("tables: error: %s" % msg)


def c_header(path):
    """The first comment of a C file, its ' * ' margins removed, as lines."""
    text = open(path).read()
    m = re.search(r"/\*\n(.*?)\n \*/", text, re.S)
    if not m:
        die("%s has no header comment" % path)
    return [re.sub(r"^ \*( |$)", "", l) for l in m.group(1).split("\n")]


def paragraph(lines, label, path):
    """The text after 'LABEL:' up to the next label or blank line, joined."""
    out = None
    for l in lines:
        if out is None:
            if l.startswith(label + ":"):
                out = [l[len(label) + 1:].strip()]
        elif not l.strip() or re.match(r"^[A-Z]\w*:", l):
            break
        else:
            out.append(l.strip())
    if out is None:
        die("%s: its header comment has no '%s:' paragraph (harness.h says how a "
            "test is documented)" % (os.path.relpath(path, ROOT), label))
    return " ".join(out)


def first_tests():
    """The tests the runner runs first: its own (init.c's header says which,
    "Test: NAME"), then testvm/guest.mk's FIRST_TESTS."""
    with open(os.path.join(ROOT, "testvm", "guest.mk")) as f:
        m = re.search(r"^FIRST_TESTS\s*:=\s*(.*)$", f.read(), re.M)
    if not m:
        die("testvm/guest.mk has no FIRST_TESTS")
    return m.group(1).split()


def guest_rows():
    tests = {}
    for f in sorted(os.listdir(os.path.join(GUEST, "tests"))):
        if f.endswith(".c"):
            tests[f[:-2]] = os.path.join(GUEST, "tests", f)
    init = os.path.join(GUEST, "init.c")
    own = paragraph(c_header(init), "Test", init)
    tests[own] = init
    first = [own] + first_tests()
    order = [n for n in first if n in tests] + sorted(n for n in tests if n not in first)
    rows = ["| test | path exercised | invariant |", "|---|---|---|"]
    for n in order:
        h = c_header(tests[n])
        rows.append("| `%s` | %s | %s |" % (n, paragraph(h, "Exercises", tests[n]),
                                          paragraph(h, "Invariant", tests[n])))
    return rows


def host_rows():
    rows = ["| test | boots | proves |", "|---|---|---|"]
    for f in sorted(os.listdir(HOST)):
        if not f.endswith(".sh") or f in ("lib.sh", "run.sh"):
            continue
        lines = open(os.path.join(HOST, f)).read().split("\n")[1:]
        boots, text = "", []
        for l in lines:
            if l.startswith("# needs:"):
                boots = l.split(":", 1)[1].split()[0]
            elif l.startswith("# shellcheck"):
                continue
            elif l.startswith("#"):
                text.append(l[1:].strip())
            else:
                break
        if not text:
            die("testvm/selftest/%s has no header comment saying what it proves" % f)
        rows.append("| `%s` | %s | %s |" % (f[:-3], boots or "no", " ".join(text)))
    return rows


def cell_rows():
    rows = ["| cell | kernel | vCPUs | MiB | kernel arguments | expected mode | in | what |",
            "|---|---|---|---|---|---|---|---|"]
    for c in cell.names():
        conf = cell.load(c)
        comment = " ".join(l[1:].strip() for l in cell.comments(c))
        args = conf["APPEND"].split()
        mode = [a.split("=", 1)[1] for a in args if a.startswith("ptltest.split=")]
        rest = " ".join(a for a in args if not a.startswith("ptltest.split="))
        vcpus = conf["SMP"] + (" (of %s)" % conf["MAXCPUS"] if "MAXCPUS" in conf else "")
        rows.append("| `%s` | %s | %s | %s | %s | %s | %s | %s |" % (
            c, conf["KERNEL"], vcpus, conf["MEM"], "`%s`" % rest if rest else "",
            mode[0] if mode else "(no series)",
            "make matrix" if conf.get("MATRIX") == "full" else
            "make check (%s; all in make matrix)" % conf["CHECK_ONLY"].replace(",", ", ")
            if conf.get("CHECK_ONLY") else "make check", comment))
    return rows


TABLES = {"guest tests": guest_rows, "host tests": host_rows, "cells": cell_rows}


def render(page):
    for kind, rows in TABLES.items():
        begin = "<!-- make docs: %s -->\n" % kind
        if begin not in page:
            die("docs/tests.md has no '%s' line" % begin.strip())
        head, rest = page.split(begin, 1)
        if "<!-- end -->" not in rest:
            die("docs/tests.md: no '<!-- end -->' after the %s table" % kind)
        rest = rest.split("<!-- end -->", 1)[1]
        page = head + begin + "\n".join(rows()) + "\n<!-- end -->" + rest
    return page


def main(argv):
    path = argv[1] if len(argv) == 2 and argv[0] == "--check" else PAGE
    page = open(path).read()
    new = render(page)
    if argv[:1] == ["--check"] and len(argv) <= 2:
        if new != page:
            old_t = {k: page.split("<!-- make docs: %s -->" % k)[1].split("<!-- end -->")[0]
                     for k in TABLES}
            new_t = {k: new.split("<!-- make docs: %s -->" % k)[1].split("<!-- end -->")[0]
                     for k in TABLES}
            for k in TABLES:
                if old_t[k] != new_t[k]:
                    print("%s: the %s table is not what the sources say "
                          "(make docs rewrites it)" % (os.path.relpath(path, ROOT), k))
            return 1
        return 0
    if argv:
        die("usage: tables.py [--check [PAGE]]")
    if new != page:
        with open(PAGE, "w") as f:
            f.write(new)
        print("docs/tests.md: tables rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
