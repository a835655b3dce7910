#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the 2005 reference series as git format-patch mails.

mkseries.py SEEDS_DIR OUT_DIR

Reads the cover letter (001-*.txt) and the nine patches (002..010-*.patch)
as posted, and writes OUT_DIR/0000-cover-letter.patch, 0001..0009-*.patch and
ptlock-2005.mbox (all of them, concatenated).  Everything the author wrote is
kept: From, Date, Subject, body, Signed-off-by, notes below the "---", and
every hunk byte for byte.  Only what git am needs is normalised:

  - "--- mmN/path <timestamp>" / "+++ mmM/path <timestamp>" file headers
    become "diff --git a/path b/path", "--- a/path", "+++ b/path";
  - the hand-written diffstats are replaced by ones computed from the hunks,
    in git's layout (the cover letter's too);
  - each mail starts with a "From <sha1> Mon Sep 17 00:00:00 2001" line, the
    sha1 taken over the mail itself; "(BST)" after the Date is dropped;
  - the cover letter's headers lose their double spaces, and a closing
    paragraph says what was normalised.
"""
import hashlib
import os
import re
import sys

HEADER = re.compile(r"^(From|Date|Subject|To):\s+(.*)$")
OLD = re.compile(r"^--- mm\d+/(\S+)(\s.*)?$")
NEW = re.compile(r"^\+\+\+ mm\d+/(\S+)(\s.*)?$")
HUNK = re.compile(r"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")
NOTE = ("[This is the series as posted to linux-kernel on 22 Oct 2005, made\n"
        "git am-able by the ptlock project: \"mmN/\" path prefixes became a/ and\n"
        "b/ with git diff headers, timestamps and \"(BST)\" were dropped, and the\n"
        "diffstats were computed from the hunks.  Every hunk is as posted.]\n")


def headers(lines):
    """Mail headers at the top of a seed, and the index of the body."""
    h = {}
    i = 0
    while i < len(lines) and lines[i].strip():
        m = HEADER.match(lines[i])
        if m:
            h[m.group(1)] = m.group(2).strip()
        i += 1
    return h, i + 1


def split_patch(text):
    """(headers, message, notes, [(path, [hunk lines])]) of one seed patch."""
    lines = text.split("\n")
    h, i = headers(lines)
    cut = lines.index("---", i)
    message = "\n".join(lines[i:cut]).rstrip("\n") + "\n"
    first = next(k for k in range(cut, len(lines)) if OLD.match(lines[k]))
    # below the cut: a note, then the hand-written diffstat (lines with "|",
    # and the "files changed" summary), then the diff
    notes = [l for l in lines[cut + 1:first]
             if l.strip() and "|" not in l and "changed," not in l]
    files = []
    k = first
    while k < len(lines):
        m = OLD.match(lines[k])
        if not m:
            k += 1
            continue
        path = m.group(1)
        n = NEW.match(lines[k + 1])
        assert n and n.group(1) == path, "unpaired header at line %d" % (k + 1)
        k += 2
        body = []
        while k < len(lines) and not OLD.match(lines[k]):
            body.append(lines[k])
            k += 1
        while body and body[-1] == "":
            body.pop()
        files.append((path, body))
    return h, message, notes, files


def counts(body):
    """Insertions and deletions of one file's hunks."""
    ins = dels = 0
    old = new = 0
    for l in body:
        m = HUNK.match(l)
        if m:
            old = int(m.group(1) or 1)
            new = int(m.group(2) or 1)
            continue
        if old <= 0 and new <= 0:
            continue
        if l.startswith("+"):
            ins += 1
            new -= 1
        elif l.startswith("-"):
            dels += 1
            old -= 1
        elif l.startswith(" ") or l == "":
            old -= 1
            new -= 1
    return ins, dels


def diffstat(per_file):
    """git's diffstat for [(path, ins, dels)]."""
    if not per_file:
        return ""
    width = max(len(p) for p, _, _ in per_file)
    most = max(i + d for _, i, d in per_file)
    ndig = len(str(most))
    bar = max(1, 72 - width - ndig - 4)
    out = []
    ti = td = 0
    for p, i, d in per_file:
        n = i + d
        if n > bar:
            pi = max(1 if i else 0, i * bar // most)
            pd = max(1 if d else 0, d * bar // most)
        else:
            pi, pd = i, d
        out.append(" %-*s | %*d %s%s" % (width, p, ndig, n, "+" * pi, "-" * pd))
        ti += i
        td += d
    s = " %d file%s changed" % (len(per_file), "s" if len(per_file) > 1 else "")
    if ti:
        s += ", %d insertion%s(+)" % (ti, "s" if ti > 1 else "")
    if td:
        s += ", %d deletion%s(-)" % (td, "s" if td > 1 else "")
    return "\n".join(out + [s]) + "\n"


def mail(h, subject, body):
    date = re.sub(r"\s*\([A-Z]+\)$", "", h["Date"])
    text = "From: %s\nDate: %s\nSubject: %s\n\n%s" % (h["From"], date, subject, body)
    sha = hashlib.sha1(text.encode()).hexdigest()
    return "From %s Mon Sep 17 00:00:00 2001\n%s" % (sha, text)


def slug(subject):
    s = re.sub(r"^\[PATCH[^]]*\]\s*", "", subject)
    s = re.sub(r"[^A-Za-z0-9]+", "-", s).strip("-")
    return s[:52].rstrip("-")


def main():
    seeds, out = sys.argv[1], sys.argv[2]
    names = sorted(os.listdir(seeds))
    cover = next(n for n in names if n.startswith("001-"))
    patches = [n for n in names if n.endswith(".patch")]
    os.makedirs(out, exist_ok=True)
    mails = []
    shortlog = []
    total = {}
    for n in patches:
        with open(os.path.join(seeds, n)) as f:
            h, message, notes, files = split_patch(f.read())
        per_file = []
        diff = []
        for path, body in files:
            i, d = counts(body)
            per_file.append((path, i, d))
            prev = total.get(path, (0, 0))
            total[path] = (prev[0] + i, prev[1] + d)
            diff += ["diff --git a/%s b/%s" % (path, path),
                     "--- a/%s" % path, "+++ b/%s" % path] + body
        body = message + "---\n"
        body += "".join(l + "\n" for l in notes)
        body += diffstat(per_file) + "\n" + "\n".join(diff) + "\n"
        subject = h["Subject"]
        num = len(mails) + 1
        mails.append(("%04d-%s.patch" % (num, slug(subject)), mail(h, subject, body)))
        shortlog.append("  " + re.sub(r"^\[PATCH[^]]*\]\s*", "", subject))

    with open(os.path.join(seeds, cover)) as f:
        lines = f.read().split("\n")
    h, i = headers(lines)
    end = next(k for k in range(i, len(lines)) if "|" in lines[k])
    text = "\n".join(lines[i:end]).rstrip("\n") + "\n\n" + NOTE + "\n"
    text += "Hugh Dickins (%d):\n%s\n\n" % (len(shortlog), "\n".join(shortlog))
    text += diffstat(sorted((p, i, d) for p, (i, d) in total.items())) + "\n"
    mails.insert(0, ("0000-cover-letter.patch", mail(h, h["Subject"], text)))

    for name, m in mails:
        with open(os.path.join(out, name), "w") as f:
            f.write(m)
    with open(os.path.join(out, "ptlock-2005.mbox"), "w") as f:
        f.write("\n".join(m for _, m in mails))
    print("wrote %d mails to %s" % (len(mails), out))


if __name__ == "__main__":
    main()
