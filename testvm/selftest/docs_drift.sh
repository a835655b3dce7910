#!/bin/sh
# docs/tests.md names every guest test, every host-side test and every cell
# (a name in backquotes; {a,b} patterns expanded), and nothing that is gone:
# the tables cannot drift from testvm/ unseen.
. "$(dirname "$0")/lib.sh"

python3 - "$ROOT" <<'PY' >"$T/out" 2>&1 || { cat "$T/out"; fail "docs/tests.md drifted"; }
import itertools, os, re, sys
root = sys.argv[1]
doc = open(os.path.join(root, "docs/tests.md")).read()

def expand(name):
    parts = re.split(r"\{([^}]*)\}", name)
    choices = [[p] if i % 2 == 0 else p.split(",") for i, p in enumerate(parts)]
    return {"".join(c) for c in itertools.product(*choices)}

named = set()
for m in re.findall(r"`([^`\s]+)`", doc):
    named |= expand(m)
have = {
    "guest test": {f[:-2] for f in os.listdir(os.path.join(root, "testvm/guest"))
                   if f.endswith(".c") and f[:-2] not in ("init", "idle")
                   and not f.startswith("bench_")},
    "host test": {f[:-3] for f in os.listdir(os.path.join(root, "testvm/selftest"))
                  if f.endswith(".sh") and f not in ("lib.sh", "run.sh")},
    "cell": set(os.listdir(os.path.join(root, "testvm/cells"))),
}
bad = 0
for kind, names in have.items():
    for n in sorted(names - named):
        print("docs/tests.md does not name the %s %s" % (kind, n))
        bad = 1
# a row's first column names something that must still exist
for row in re.findall(r"^\| `([^`]+)`", doc, re.M):
    for n in expand(row):
        if re.fullmatch(r"[\w.+-]+", n) and not any(n in v for v in have.values()) \
                and not n.startswith(("kunit.", "mm.")) and "-" not in n[:1]:
            if re.fullmatch(r"(fault|swapoff|thp|hugetlb|lockstat|uffd|mm|qemu|tree|report|ktap|bench|lint|historical|make|docs|tooling)_\w+|[\d.]*-?\w+-smp\d", n):
                print("docs/tests.md names %s, which testvm/ no longer has" % n)
                bad = 1
sys.exit(bad)
PY
exit 0
