#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise a bench.sh run: bench.py OUT
Compare the runs of several bases: bench.py --bases DEST OUT...

Reads OUT/host.txt and the consoles OUT/runs/PART-ROUND-MODE-KIND/CELL/console.log
("# bench: kind=K threads=T faults=N ms=M faults_per_s=R [lock figures]"),
writes OUT/bench.json, OUT/bench.md (tables, and the goals with the
measured ratio next to each) and OUT/bench.png (gnuplot: faults/s against
threads, one line per mode, one panel per kind).

With --bases, reads each OUT/bench.json (one per base, host.txt's base=)
and writes DEST/bases.md and DEST/bases.json: every part, kind, thread count
and mode, the median faults/s on each base side by side.
"""
import glob
import json
import os
import re
import statistics
import subprocess
import sys

RUN = re.compile(r"(scaling|contention|cost|huge|hugelock)-(\d+)-(on|off|stock)-(\w+)$")
LOCK_PARTS = ("contention", "hugelock")		# debug kernels: lock_stat figures
LINE = re.compile(r"^# bench: (.*)$")
KV = re.compile(r"(\w+)=(\d+)")
LOCK_KEYS = ("mm_acq", "mm_con", "mm_wait_us", "ptl_acq", "ptl_con", "ptl_wait_us")


def collect(runs):
    """{(part, kind, threads, mode): {round: figures}}"""
    got = {}
    for d in sorted(os.listdir(runs)):
        m = RUN.match(d)
        if not m:
            continue
        part, rnd, mode, _ = m.groups()
        # RUN/CELL/console.log: testvm/boot.sh's run directory of the cell
        cons = sorted(glob.glob(os.path.join(runs, d, "*", "console.log")))
        if not cons:
            continue
        with open(cons[0], errors="replace") as f:
            for line in f:
                b = LINE.match(line.strip())
                if not b:
                    continue
                fig = {k: int(v) for k, v in KV.findall(b.group(1))}
                kind = re.search(r"kind=(\w+)", b.group(1)).group(1)
                got.setdefault((part, kind, fig["threads"], mode), {})[int(rnd)] = fig
    return got


def stats(values):
    return {"median": statistics.median(values), "min": min(values),
            "max": max(values), "n": len(values), "runs": values}


def summarise(got):
    rows = {"scaling": [], "contention": [], "cost": [], "huge": [], "hugelock": []}
    for (part, kind, t, mode), per in sorted(got.items()):
        row = {"kind": kind, "threads": t, "mode": mode,
               "faults_per_s": stats([f["faults_per_s"] for f in per.values()])}
        if part in LOCK_PARTS:
            for k in LOCK_KEYS:
                row[k] = stats([f.get(k, 0) for f in per.values()])
        rows[part].append(row)
    return rows


def find(rows, kind, t, mode):
    for r in rows:
        if (r["kind"], r["threads"], r["mode"]) == (kind, t, mode):
            return r
    return None


def goals(rows, got, kernel):
    out = []
    on, off = find(rows["scaling"], "lameter", 2, "on"), find(rows["scaling"], "lameter", 2, "off")
    if on and off:
        ratio = on["faults_per_s"]["median"] / off["faults_per_s"]["median"]
        out.append({"goal": "Lameter, 2 threads on 2 vCPUs: split >= 1.8x off",
                    "measured": "%.2fx" % ratio, "met": ratio >= 1.8})
    on, off = find(rows["contention"], "lameter", 2, "on"), find(rows["contention"], "lameter", 2, "off")
    if on and off:
        base = off["mm_con"]["median"]
        pct = 100.0 * on["ptl_con"]["median"] / base if base else None
        out.append({"goal": "ptlock contentions (split) <= 1% of page_table_lock contentions (off)",
                    "measured": "%s (%d vs %d)" % ("%.1f%%" % pct if pct is not None else "n/a",
                                                   on["ptl_con"]["median"], base),
                    "met": pct is not None and pct <= 1.0})
    for kind in sorted({k for (p, k, t, m) in got if p == "cost"}):
        st, on = got.get(("cost", kind, 1, "stock"), {}), got.get(("cost", kind, 1, "on"), {})
        pairs = [on[r]["faults_per_s"] / st[r]["faults_per_s"] for r in sorted(st) if r in on]
        if pairs:
            ratio = statistics.median(pairs)
            q = statistics.quantiles(pairs, n=4) if len(pairs) > 1 else [ratio] * 3
            # a 1% goal cannot be judged from pairs that scatter more than that
            met = None if q[2] - q[0] > 0.02 else ratio >= 0.99
            out.append({"goal": "%s T=1: patched split=on vs stock %s, <= 1%% slower" % (kind, kernel),
                        "measured": "%+.1f%% (median of %d interleaved pairs; quartiles "
                                    "%.3f..%.3f, range %.3f..%.3f)%s" % (
                                        100 * (ratio - 1), len(pairs), q[0], q[2],
                                        min(pairs), max(pairs),
                                        "; unresolved: the pairs scatter more than 1%"
                                        if met is None else ""),
                        "met": met})
    for kind in sorted({r["kind"] for r in rows["scaling"]}):
        on, off = find(rows["scaling"], kind, 1, "on"), find(rows["scaling"], kind, 1, "off")
        if on and off:
            ratio = on["faults_per_s"]["median"] / off["faults_per_s"]["median"]
            out.append({"goal": "%s T=1: off vs on (Hugh: a small advantage to off)" % kind,
                        "measured": "off is %+.1f%% against on" % (100 * (1 / ratio - 1)),
                        "met": None})
    return out


def fmt(s):
    return "%d (%d..%d)" % (s["median"], s["min"], s["max"])


def markdown(host, rows, gl):
    md = ["# Page-fault benchmark", "",
          "Host: %s cores, %s; guest: %s vCPUs, %s MiB, TCG; %s ms per measurement; "
          "host load before/after: %s / %s; boots tried again after a TCG reset: %s. "
          "Medians over rounds, (min..max)." % (
              host.get("host_cores"), host.get("qemu"), host.get("guest_vcpus"),
              host.get("guest_mem_mib"), host.get("ms"), host.get("load_before"),
              host.get("load_after"), host.get("boots_reset_by_tcg", "0")),
          "", "## Goals", "",
          "| goal | measured | met |", "|---|---|---|"]
    for g in gl:
        met = {True: "yes", False: "no", None: "-"}[g["met"]]
        md.append("| %s | %s | %s |" % (g["goal"], g["measured"], met))
    md += ["", "## Scaling (perf kernel): faults/s", "",
           "| kind | T | split=on | split=off | on/off |", "|---|---|---|---|---|"]
    for r in rows["scaling"]:
        if r["mode"] != "on":
            continue
        off = find(rows["scaling"], r["kind"], r["threads"], "off")
        md.append("| %s | %d | %s | %s | %s |" % (
            r["kind"], r["threads"], fmt(r["faults_per_s"]),
            fmt(off["faults_per_s"]) if off else "-",
            "%.2f" % (r["faults_per_s"]["median"] / off["faults_per_s"]["median"]) if off else "-"))
    md += lock_table(rows["contention"],
                     "Contention (debug kernel, lock_stat, lameter, 2 threads)")
    md += ["", "## Cost of the switch (T=1): faults/s", "",
           "| kind | stock %s | patched, split=on |" % host.get("base", "6.1"), "|---|---|---|"]
    for r in rows["cost"]:
        if r["mode"] == "stock":
            on = find(rows["cost"], r["kind"], 1, "on")
            md.append("| %s | %s | %s |" % (r["kind"], fmt(r["faults_per_s"]),
                                            fmt(on["faults_per_s"]) if on else "-"))
    if rows["huge"]:
        md += ["", "## Huge pages (PAE: perf-pae unless PERF_PAE_KERNEL says otherwise; 2 vCPUs; kind thp): THP faults/s", "",
               "Each thread first-touches its own huge pages, in a pmd table of its own.", "",
               "| T | split=on | split=off | on/off |", "|---|---|---|---|"]
        for r in rows["huge"]:
            off = find(rows["huge"], r["kind"], r["threads"], "off")
            if r["mode"] == "on":
                md.append("| %d | %s | %s | %s |" % (
                    r["threads"], fmt(r["faults_per_s"]), fmt(off["faults_per_s"]) if off else "-",
                    "%.2f" % (r["faults_per_s"]["median"] / off["faults_per_s"]["median"])
                    if off else "-"))
    if rows["hugelock"]:
        md += lock_table(rows["hugelock"], "Huge-page contention (debug-pae kernel, lock_stat, "
                         "thp, 2 threads): the pmd-level lock")
    return "\n".join(md) + "\n"


def lock_table(rows, title):
    md = ["", "## " + title, "",
          "| mode | faults/s | page_table_lock acq / con / wait us | ptlock acq / con / wait us |",
          "|---|---|---|---|"]
    for r in rows:
        md.append("| %s | %s | %d / %d / %d | %d / %d / %d |" % (
            r["mode"], fmt(r["faults_per_s"]), *(r[k]["median"] for k in LOCK_KEYS)))
    return md


def plot(out, rows):
    # one panel per kind; thp's figures come from the huge part
    kinds = sorted({r["kind"] for r in rows["scaling"] + rows["huge"]})
    if not kinds:
        return
    gp = ["set terminal png size 1000,%d" % (380 * ((len(kinds) + 1) // 2)),
          "set output '%s'" % os.path.join(out, "bench.png"),
          "set multiplot layout %d,2 title 'page faults/s vs threads (perf kernels, TCG; "
          "thp: huge faults, perf-pae; median, min..max)'" % ((len(kinds) + 1) // 2),
          "set xlabel 'threads'", "set ylabel 'faults/s'", "set xtics 1",
          "set yrange [0:*]", "set offsets 0.2, 0.2, 0, 0", "set key bottom right"]
    for kind in kinds:
        lines = []
        for mode in ("on", "off"):
            dat = os.path.join(out, "bench-%s-%s.dat" % (kind, mode))
            with open(dat, "w") as f:
                for r in rows["scaling"] + rows["huge"]:
                    if r["kind"] == kind and r["mode"] == mode:
                        s = r["faults_per_s"]
                        f.write("%d %d %d %d\n" % (r["threads"], s["median"], s["min"], s["max"]))
            lines.append("'%s' using 1:2:3:4 with yerrorlines title 'split=%s'" % (dat, mode))
        gp += ["set title '%s'" % kind, "plot " + ", ".join(lines)]
    gp.append("unset multiplot")
    path = os.path.join(out, "bench.gp")
    with open(path, "w") as f:
        f.write("\n".join(gp) + "\n")
    subprocess.run(["gnuplot", path], check=True)


def bases(dest, outs):
    """DEST/bases.md: the median faults/s of each base, side by side."""
    runs = []
    for o in outs:
        with open(os.path.join(o, "bench.json")) as f:
            b = json.load(f)
        runs.append((b["host"].get("base", "6.1"), b["rows"]))
    names = [b for b, _ in runs]
    keys = []
    for _, rows in runs:
        for part in ("scaling", "cost", "huge", "contention", "hugelock"):
            for r in rows.get(part, []):
                k = (part, r["kind"], r["threads"], r["mode"])
                if k not in keys:
                    keys.append(k)
    table = []
    for k in keys:
        vals = []
        for _, rows in runs:
            r = find(rows.get(k[0], []), k[1], k[2], k[3])
            vals.append(r["faults_per_s"]["median"] if r else None)
        table.append({"part": k[0], "kind": k[1], "threads": k[2], "mode": k[3],
                      "faults_per_s": dict(zip(names, vals))})
    md = ["# Page-fault benchmark: the bases side by side", "",
          "Median faults/s of each `make bench` part on each base (same cells, same "
          "host; each base's own stock kernel in `cost`). Under TCG: compare the "
          "columns with each other, not with hardware.", "",
          "| part | kind | T | mode | " + " | ".join(names) + " | %s/%s |" % (names[-1], names[0]),
          "|---" * (5 + len(names)) + "|"]
    for t in table:
        v = [t["faults_per_s"][n] for n in names]
        ratio = "%.2f" % (v[-1] / v[0]) if v[0] and v[-1] else "-"
        md.append("| %s | %s | %d | %s | %s | %s |" % (
            t["part"], t["kind"], t["threads"], t["mode"],
            " | ".join("%d" % x if x is not None else "-" for x in v), ratio))
    with open(os.path.join(dest, "bases.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(dest, "bases.json"), "w") as f:
        json.dump({"bases": names, "rows": table}, f, indent=1)
    print("bench: %s" % os.path.join(dest, "bases.md"))


def main():
    if sys.argv[1] == "--bases":
        return bases(sys.argv[2], sys.argv[3:])
    out = sys.argv[1]
    host = {}
    with open(os.path.join(out, "host.txt")) as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("=")
            host[k] = v
    got = collect(os.path.join(out, "runs"))
    if not got:
        sys.exit("bench.py: error: no '# bench:' lines under %s/runs" % out)
    rows = summarise(got)
    gl = goals(rows, got, host.get("base", "6.1"))
    with open(os.path.join(out, "bench.json"), "w") as f:
        json.dump({"host": host, "rows": rows, "goals": gl}, f, indent=1)
    text = markdown(host, rows, gl)
    with open(os.path.join(out, "bench.md"), "w") as f:
        f.write(text)
    plot(out, rows)
    sys.stdout.write(text)
    print("bench: %s" % ", ".join(os.path.join(out, n) for n in
                                  ("bench.md", "bench.json", "bench.png")))


if __name__ == "__main__":
    main()
