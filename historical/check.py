#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the 2005 series in historical/ without a 2.6.14 tree.

check.py [--seeds DIR] [--summary FILE] [--dir SERIES_DIR]
check.py --port [--summary FILE] [--dir SERIES_DIR]
check.py [--port] --pre-images DIR

--pre-images writes the scratch tree the git-am check uses (the series'
pre-images, lines no hunk shows as placeholders) into DIR and stops: the
host-side tests of 'make historical' build a fake 2.6.14 tree from it.

KTAP, one line per check:
  mailinfo      git mailsplit + git mailinfo recover author, date, subject
                and a non-empty patch from every mail; the .mbox holds the
                same mails in order
  hunks         every hunk equals the posted one in SEEDS (default
                ../shared/seeds), byte for byte; only the path headers differ
  diffstat      each mail's diffstat says what git apply --numstat counts
  consistency   where a patch touches a file an earlier one touched, its
                context agrees with the earlier patch's result
  git-am        git am of the nine patches onto a scratch tree rebuilt from
                the series' own pre-images succeeds, authorship kept

--port checks the port to vanilla 2.6.14 (historical/port) the same way,
where it differs as follows:
  mailinfo      the patches before the nine are the port's own (not Hugh
                Dickins', signed off); each of the nine has the posted
                patch's author, date and subject, its changelog begins with
                the posted one, then a "[ Port to vanilla 2.6.14: ... ]"
                note and a sign-off that is not Hugh Dickins'
  hunks         a patch whose note says it "applies unchanged" has the
                posted patch's hunks, line numbers aside
  git-am        the port's own patches, then the nine, authorship kept
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def mails():
    return sorted(f for f in os.listdir(HERE) if re.match(r"^\d{4}-.*\.patch$", f))


def problems_of_log(log, authors):
    """log: "author|date|subject" lines, oldest first; authors: who each
    commit's author must be (None: anyone but Hugh Dickins)."""
    if len(log) != len(authors):
        return ["git am made %d commits, not %d" % (len(log), len(authors))]
    out = []
    for l, a in zip(log, authors):
        who = l.split("|")[0]
        if (a is None and who == HUGH) or (a is not None and who != a):
            out.append("commit by %s, expected %s: %s" % (who, a or "the port", l))
    return out


HUGH = "Hugh Dickins"
NOTE = "[ Port to vanilla 2.6.14:"


def mail_of(path, top):
    """(fields, changelog, patch) of one mail, by git mailinfo."""
    d = tempfile.mkdtemp(dir=top)
    info = run(["git", "mailinfo", d + "/msg", d + "/patch"], stdin=open(path))
    fields = dict(l.split(": ", 1) for l in info.stdout.splitlines() if ": " in l)
    fields["rc"] = info.returncode
    return fields, open(d + "/msg").read(), open(d + "/patch").read()


def port_mail_problems(here, names, posted_dir, top):
    """The port's mails: its own first, then the nine adapted (see --port)."""
    problems = []
    posted = {}
    for n in sorted(f for f in os.listdir(posted_dir) if re.match(r"^000[1-9]-.*\.patch$", f)):
        f, msg, _ = mail_of(os.path.join(posted_dir, n), top)
        posted[f["Subject"]] = (f, msg)
    authors = []
    for n in names:
        f, msg, patch = mail_of(os.path.join(here, n), top)
        if f["rc"] or not f.get("Subject"):
            problems.append("%s: git mailinfo failed" % n)
            continue
        if n.startswith("0000-"):
            if patch:
                problems.append("%s: the cover letter carries a patch" % n)
            continue
        if not patch:
            problems.append("%s: no patch" % n)
        sobs = re.findall(r"^Signed-off-by: (.*)$", msg, re.M)
        if f["Subject"] not in posted:
            authors.append(None)
            if f.get("Author") == HUGH:
                problems.append("%s: the port's own patch is by %s" % (n, HUGH))
            if not sobs:
                problems.append("%s: no Signed-off-by" % n)
            continue
        authors.append(HUGH)
        pf, pmsg = posted.pop(f["Subject"])
        for k in ("Author", "Email", "Date"):
            if f.get(k) != pf.get(k):
                problems.append("%s: %s %r, posted %r" % (n, k, f.get(k), pf.get(k)))
        if not msg.startswith(pmsg.rstrip("\n") + "\n"):
            problems.append("%s: the changelog does not begin with the posted one" % n)
            continue
        rest = msg[len(pmsg.rstrip("\n")) + 1:]
        if not rest.startswith(NOTE) or "]" not in rest:
            problems.append("%s: no %r note after the posted changelog" % (n, NOTE))
        if not sobs or HUGH in sobs[-1]:
            problems.append("%s: the last Signed-off-by is not the port's" % n)
    for subject in posted:
        problems.append("no adapted patch for %r" % subject)
    return problems, authors


def file_hunks(text, header):
    """{path: [lines]} of a diff; header(line) gives the path a file starts."""
    out, cur = {}, None
    for line in text.split("\n"):
        p = header(line)
        if p:
            cur = out.setdefault(p, [])
            continue
        if cur is None:
            continue
        if line.startswith("diff --git ") or line.startswith("--- "):
            if not (line.startswith("--- ") and cur and cur[-1].startswith("@@")):
                cur = None if line.startswith("diff --git ") else cur
                if line.startswith("--- "):
                    continue
                continue
        cur.append(line)
    for p in out:
        while out[p] and out[p][-1] == "":
            out[p].pop()
    return out


def ours(text):
    m = re.compile(r"^\+\+\+ b/(\S+)$")
    return file_hunks(text, lambda l: (m.match(l) or [None, None])[1])


def seed(text):
    m = re.compile(r"^\+\+\+ mm\d+/(\S+)\s")
    return file_hunks(text, lambda l: (m.match(l) or [None, None])[1])


def hunks_of(lines):
    """[(old_start, old_lines, new_lines)] of one file's hunk lines."""
    out = []
    for line in lines:
        m = HUNK.match(line)
        if m:
            out.append((int(m.group(1)), [], []))
            continue
        if not out:
            continue
        tag, body = (line[:1], line[1:]) if line else (" ", "")
        if tag in " -":
            out[-1][1].append(body)
        if tag in " +":
            out[-1][2].append(body)
    return out


class File:
    """What is known of one file as the series goes: each position holds
    either text a patch wrote or a line of the original, by number."""

    def __init__(self):
        self.cur = []		# ("t", text) or ("o", original line number)
        self.next_orig = 1	# original number of position len(cur) + 1
        self.orig = {}		# original line number -> text

    def apply(self, start, old, new, where, problems):
        lo, hi = start - 1, start - 1 + len(old)
        while len(self.cur) < hi:
            self.cur.append(("o", self.next_orig))
            self.next_orig += 1
        for k, (kind, v) in enumerate(self.cur[lo:hi]):
            want = old[k]
            if kind == "t" and v != want:
                problems.append("%s: line %d is %r after the earlier patches, "
                                "its context says %r" % (where, lo + k + 1, v, want))
            if kind == "o" and self.orig.setdefault(v, want) != want:
                problems.append("%s: original line %d read as %r and as %r" %
                                (where, v, self.orig[v], want))
        self.cur[lo:hi] = [("t", x) for x in new]

    def original(self):
        last = max(self.orig) if self.orig else 0
        return "".join(self.orig.get(n, "/* line %d: not in any hunk */" % n) + "\n"
                       for n in range(1, last + 1))


def write_pre_images(files, d):
    """Each file the series touches, as it was before the series."""
    for path, f in files.items():
        os.makedirs(os.path.dirname(os.path.join(d, path)), exist_ok=True)
        with open(os.path.join(d, path), "w") as out:
            out.write(f.original())


def main():
    global HERE
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default=os.path.join(HERE, "..", "..", "shared", "seeds"))
    ap.add_argument("--summary")
    ap.add_argument("--dir", help="the series to check (default: historical/patches,"
                    " with --port historical/port)")
    ap.add_argument("--port", action="store_true",
                    help="check the port to vanilla 2.6.14 (see above)")
    ap.add_argument("--pre-images", metavar="DIR",
                    help="write the pre-image tree to DIR (no git) and stop")
    args = ap.parse_args()
    posted_dir = os.path.join(HERE, "patches")
    HERE = os.path.abspath(args.dir or os.path.join(HERE, "port" if args.port else "patches"))
    names = mails()
    texts = {n: open(os.path.join(HERE, n)).read() for n in names}
    patches = [n for n in names if not n.startswith("0000-")]
    results = []

    def report(name, problems, skip=None):
        results.append((name, problems, skip))

    # mailinfo
    problems = []
    authors = [HUGH] * len(patches)
    if args.port:
        with tempfile.TemporaryDirectory() as top:
            problems, authors = port_mail_problems(HERE, names, posted_dir, top)
    else:
        with tempfile.TemporaryDirectory() as top:
            for n in names:
                d = os.path.join(top, n)
                os.mkdir(d)
                r = run(["git", "mailsplit", "-o" + d, os.path.join(HERE, n)])
                info = run(["git", "mailinfo", d + "/msg", d + "/patch"],
                           stdin=open(d + "/0001"))
                fields = dict(l.split(": ", 1) for l in info.stdout.splitlines() if ": " in l)
                size = os.path.getsize(d + "/patch") if os.path.exists(d + "/patch") else 0
                if r.stdout.strip() != "1" or info.returncode:
                    problems.append("%s: git mailsplit/mailinfo failed" % n)
                for k in ("Author", "Email", "Subject", "Date"):
                    if not fields.get(k):
                        problems.append("%s: no %s" % (n, k))
                if fields.get("Author") != "Hugh Dickins":
                    problems.append("%s: author is %r" % (n, fields.get("Author")))
                if (size == 0) != n.startswith("0000-"):
                    problems.append("%s: patch is %d bytes" % (n, size))
            d = os.path.join(top, "mbox")
            os.mkdir(d)
            r = run(["git", "mailsplit", "-o" + d, os.path.join(HERE, "ptlock-2005.mbox")])
            if r.stdout.strip() != str(len(names)):
                problems.append("ptlock-2005.mbox holds %s mails, not %d" % (r.stdout.strip(), len(names)))
            else:
                for i, n in enumerate(names):
                    got = open("%s/%04d" % (d, i + 1)).read()
                    if got.split("\n", 1)[1].rstrip("\n") != texts[n].split("\n", 1)[1].rstrip("\n"):
                        problems.append("ptlock-2005.mbox mail %d differs from %s" % (i + 1, n))
    report("mailinfo", problems)

    # hunks against the posted series
    if args.port:
        problems = []
        posted = {}
        for n in sorted(os.listdir(posted_dir)):
            if re.match(r"^000[1-9]-.*\.patch$", n):
                t = open(os.path.join(posted_dir, n)).read()
                posted[re.search(r"^Subject: \[PATCH \d+/\d+\] (.*)$", t, re.M).group(1)] = t
        same = 0
        for n in patches:
            m = re.search(r"^Subject: \[PATCH \d+/\d+\] (.*)$", texts[n], re.M)
            if not m or m.group(1) not in posted or "applies unchanged" not in texts[n]:
                continue
            same += 1
            a, b = ours(posted[m.group(1)]), ours(texts[n])
            if list(a) != list(b):
                problems.append("%s: files %s, posted %s" % (n, list(b), list(a)))
            for p in a:
                if [x for x in a[p] if not x.startswith("@@")] != \
                   [x for x in b.get(p, []) if not x.startswith("@@")]:
                    problems.append("%s: says it applies unchanged, but its hunks of %s "
                                    "differ from the posted ones" % (n, p))
        if not same:
            problems.append("no patch says it applies unchanged")
        report("hunks", problems)
    elif os.path.isdir(args.seeds):
        problems = []
        seeds = sorted(f for f in os.listdir(args.seeds) if f.endswith(".patch"))
        if len(seeds) != len(patches):
            problems.append("%d seeds, %d patches" % (len(seeds), len(patches)))
        for s, n in zip(seeds, patches):
            a = seed(open(os.path.join(args.seeds, s)).read())
            b = ours(texts[n])
            if list(a) != list(b):
                problems.append("%s: files %s, posted %s" % (n, list(b), list(a)))
            for p in a:
                if a[p] != b.get(p):
                    problems.append("%s: hunks of %s differ from %s" % (n, p, s))
        report("hunks", problems)
    else:
        report("hunks", [], "no seeds at %s" % args.seeds)

    # diffstat
    problems = []
    for n in patches:
        r = run(["git", "apply", "--numstat", os.path.join(HERE, n)])
        for line in r.stdout.splitlines():
            ins, dels, path = line.split("\t")
            m = re.search(r"^ %s\s+\|\s+(\d+) " % re.escape(path), texts[n], re.M)
            if not m or int(m.group(1)) != int(ins) + int(dels):
                problems.append("%s: diffstat of %s says %s, hunks %s" %
                                (n, path, m and m.group(1), int(ins) + int(dels)))
        m = re.search(r"^ (\d+) files? changed, (?:(\d+) insertions?\(\+\))?(?:, )?"
                      r"(?:(\d+) deletions?\(-\))?", texts[n], re.M)
        tot = [0, 0]
        for line in r.stdout.splitlines():
            tot[0] += int(line.split("\t")[0])
            tot[1] += int(line.split("\t")[1])
        if not m or [int(m.group(2) or 0), int(m.group(3) or 0)] != tot:
            problems.append("%s: summary line disagrees with %s" % (n, tot))
    report("diffstat", problems)

    # consistency, and the pre-image tree
    problems = []
    files = {}
    for n in patches:
        for path, lines in ours(texts[n]).items():
            f = files.setdefault(path, File())
            delta = 0
            for start, old, new in hunks_of(lines):
                f.apply(start + delta, old, new, "%s %s" % (n, path), problems)
                delta += len(new) - len(old)
    report("consistency", problems)
    if args.pre_images:
        if problems:
            print("check: error: the series is inconsistent: " + problems[0],
                  file=sys.stderr)
            return 1
        write_pre_images(files, args.pre_images)
        return 0

    problems = []
    with tempfile.TemporaryDirectory() as d:
        write_pre_images(files, d)
        git = ["git", "-C", d, "-c", "user.name=check", "-c", "user.email=check@localhost"]
        run(git + ["init", "-q"])
        run(git + ["add", "-A"])
        run(git + ["commit", "-q", "-m", "pre-images of the 2005 series"])
        r = run(git + ["am", "-q"] + [os.path.join(HERE, n) for n in patches])
        if r.returncode:
            problems.append("git am: " + (r.stderr or r.stdout).strip().replace("\n", " / "))
        else:
            r = run(git + ["log", "--reverse", "--format=%an|%ad|%s", "--date=rfc",
                           "HEAD~%d.." % len(patches)])
            problems += problems_of_log(r.stdout.splitlines(), authors)
    report("git-am", problems)

    print("KTAP version 1\n1..%d" % len(results))
    failed = 0
    for i, (name, problems, skip) in enumerate(results, 1):
        for p in problems[:20]:
            print("# %s: %s" % (name, p))
        if skip:
            print("ok %d %s # SKIP %s" % (i, name, skip))
        elif problems:
            print("not ok %d %s" % (i, name))
            failed += 1
        else:
            print("ok %d %s" % (i, name))
    skipped = sum(1 for r in results if r[2])
    passed = len(results) - failed - skipped
    print("historical%s: %d passed, %d failed, %d skipped"
          % (" port" if args.port else "", passed, failed, skipped))
    if args.summary:
        with open(args.summary, "w") as f:
            json.dump({"passed": passed, "failed": failed, "skipped": skipped}, f)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
