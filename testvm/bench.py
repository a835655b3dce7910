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

RUN = re.compile(r"(scaling|contention|cost|huge|hugelock|icount|ptlmem|lockscale)"
                 r"-(\d+)-(on|off|stock)-(\w+)$")
# the run's name says the arch, flavour or kernel: "pae:pf1", "debug_lameter:lameter"
TAGGED = ("icount", "ptlmem", "lockscale")
SCALE_KEYS = ("us", "mm_wait_us", "ptl_wait_us", "mm_hold_us", "ptl_hold_us", "mm_con", "ptl_con")
MEM_KEYS = ("tables", "ptl_cache", "slab_sysfs", "ptl_objects", "ptl_object_size",
            "ptl_bytes_per_object")
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
        part, rnd, mode, tag = m.groups()
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
                if part in TAGGED:
                    kind = tag + ":" + kind
                got.setdefault((part, kind, fig["threads"], mode), {})[int(rnd)] = fig
    return got


def stats(values):
    return {"median": statistics.median(values), "min": min(values),
            "max": max(values), "n": len(values), "runs": values}


def summarise(got):
    rows = {"scaling": [], "contention": [], "cost": [], "huge": [], "hugelock": [],
            "icount": [], "ptlmem": [], "lockscale": []}
    for (part, kind, t, mode), per in sorted(got.items()):
        row = {"kind": kind, "threads": t, "mode": mode,
               "faults_per_s": stats([f["faults_per_s"] for f in per.values()])}
        if part in LOCK_PARTS:
            for k in LOCK_KEYS:
                row[k] = stats([f.get(k, 0) for f in per.values()])
        if part == "icount":
            # -icount shift=0: a tick of the guest's TSC is one instruction
            row["ipf"] = stats([f["tsc"] / f["faults"] for f in per.values()])
        if part == "ptlmem":
            f = list(per.values())[0]
            row.update({k: f.get(k, -1) for k in MEM_KEYS})
        if part == "lockscale":
            row["lockstat"] = all("mm_acq" in f for f in per.values())
            for k in SCALE_KEYS:
                row[k] = [f.get(k, 0) for f in per.values()]
        rows[part].append(row)
    return rows


def waits(row, vcpus):
    """lock_stat's wait on the page-table locks, and page_table_lock's hold,
    as fractions of the threads' running time (min(T, vCPUs) x elapsed):
    medians over the rounds"""
    busy = [min(row["threads"], vcpus) * us for us in row["us"]]
    w = [(m + p) / b for m, p, b in zip(row["mm_wait_us"], row["ptl_wait_us"], busy)]
    h = [m / b for m, b in zip(row["mm_hold_us"], busy)]
    return statistics.median(w), statistics.median(h)


def lockscale(rows, vcpus):
    """Per kernel, kind and T: the measured on/off and the model's.  The
    model: removing a wait fraction w from each thread's time raises its
    rate by 1/(1 - w), so on/off = (1 - w_on) / (1 - w_off)."""
    out = []
    for r in rows:
        if r["mode"] != "on":
            continue
        off = find(rows, r["kind"], r["threads"], "off")
        if not off:
            continue
        flavour, kind = r["kind"].split(":")
        e = {"kernel": flavour.split("_")[0], "kind": kind, "threads": r["threads"],
             "on": r["faults_per_s"], "off": off["faults_per_s"],
             "measured": r["faults_per_s"]["median"] / off["faults_per_s"]["median"],
             "ratios": [a / b for a, b in zip(r["faults_per_s"]["runs"],
                                              off["faults_per_s"]["runs"])]}
        if r["lockstat"] and off["lockstat"]:
            (w_on, _), (w_off, h_off) = waits(r, vcpus), waits(off, vcpus)
            e.update({"w_on": w_on, "w_off": w_off, "hold_off": h_off,
                      "predicted": (1 - w_on) / (1 - w_off)})
        out.append(e)
    return out


def icount_cmp(rows, kind, a, b):
    """Mode a against mode b in instructions per fault: (ratio - 1, its
    uncertainty: half of each mode's relative range, added), or None."""
    ra, rb = find(rows, kind, 1, a), find(rows, kind, 1, b)
    if not ra or not rb:
        return None
    ma, mb = statistics.mean(ra["ipf"]["runs"]), statistics.mean(rb["ipf"]["runs"])
    u = sum((r["ipf"]["max"] - r["ipf"]["min"]) / 2 / statistics.mean(r["ipf"]["runs"])
            for r in (ra, rb))
    return ma / mb - 1, u, min(r["ipf"]["n"] for r in (ra, rb))


def icount_goals(rows):
    out, worst = [], 0.0
    for r in rows:
        if r["mode"] != "on":
            continue
        # on against stock: a 1% goal; off against on: a question
        for a, b, what in (("on", "stock", "patched split=on within 1% of stock"),
                           ("off", "on", "what off saves against on")):
            cmp = icount_cmp(rows, r["kind"], a, b)
            if not cmp:
                continue
            c, u, n = cmp
            worst = max(worst, u)
            met = None if a == "off" else True if c + u <= 0.01 else False if c - u > 0.01 else None
            out.append({"goal": "%s T=1, instructions a fault: %s" % (r["kind"].replace(":", " "), what),
                        "measured": "%+.3f%% ± %.3f%% (%d runs each)" % (100 * c, 100 * u, n),
                        "met": met})
    if out:
        out.append({"goal": "icount: every comparison resolved to 0.1% or finer",
                    "measured": "the widest ± is %.3f%%" % (100 * worst), "met": worst <= 0.001})
    return out


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
    return out + icount_goals(rows["icount"])


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
    if rows["scaling"]:
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
    if rows["contention"]:
        md += lock_table(rows["contention"],
                         "Contention (debug kernel, lock_stat, lameter, 2 threads)")
    if rows["cost"]:
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
    if rows["icount"]:
        md += ["", "## Cost in instructions (perf kernels, icount, 1 vCPU, T=1): guest "
               "instructions a fault", "",
               "QEMU with -icount shift=0,sleep=off: the guest's time stamp counter "
               "counts the instructions it executes, so a kind's %s ms of guest time are "
               "%s·10⁶ instructions, whatever the host's load. Each figure is the mean of "
               "its runs, (min..max); a comparison's ± is half of each side's relative "
               "range, added." % (host.get("icount_ms"), host.get("icount_ms")), "",
               "| arch | kind | stock | split=on | split=off | on vs stock | off vs on |",
               "|---|---|---|---|---|---|---|"]
        for r in rows["icount"]:
            if r["mode"] != "on":
                continue
            arch, kind = r["kind"].split(":")
            cells = []
            for mode in ("stock", "on", "off"):
                x = find(rows["icount"], r["kind"], 1, mode)
                cells.append("%.1f (%.1f..%.1f)" % (statistics.mean(x["ipf"]["runs"]),
                                                    x["ipf"]["min"], x["ipf"]["max"])
                             if x else "-")
            for a, b in (("on", "stock"), ("off", "on")):
                c = icount_cmp(rows["icount"], r["kind"], a, b)
                cells.append("%+.3f%% ± %.3f%%" % (100 * c[0], 100 * c[1]) if c else "-")
            md.append("| %s | %s | %s |" % (arch, kind, " | ".join(cells)))
    if rows["ptlmem"]:
        md += ["", "## Memory of the locks (kind=tables: %s pte tables; slub_nomerge)" %
               rows["ptlmem"][0]["tables"], "",
               "`page->ptl` is the slab cache of the locks that ALLOC_SPLIT_PTLOCKS "
               "allocates, one per table; without it the lock lives in the table's "
               "struct page. Tables: the growth of VmPTE (pmd tables too). Locks "
               "allocated: the growth of the cache's `objects`, which SLUB counts in "
               "whole slabs, the free objects of a CPU's slabs counted as used: it "
               "comes within a slab or two of the tables, not exactly.", "",
               "| arch | kernel | mode | tables | locks allocated | lock bytes "
               "(object, in its slab) | bytes a table |", "|---|---|---|---|---|---|---|"]
        for r in rows["ptlmem"]:
            tag, _ = r["kind"].split(":")
            fl, arch = tag.split("_", 1)
            if not r["slab_sysfs"]:
                per = "no /sys/kernel/slab"
            elif not r["ptl_cache"]:
                per = "no page->ptl cache"
            else:
                per = "%d, %d" % (r["ptl_object_size"], r["ptl_bytes_per_object"])
            alloc = r["ptl_objects"] if r["ptl_cache"] else 0
            md.append("| %s | %s | %s | %d | %d | %s | %s |" % (
                arch, fl, r["mode"], r["tables"], alloc, per,
                "%d" % r["ptl_bytes_per_object"] if r["ptl_cache"] else "0"))
    return "\n".join(md) + "\n"


def lockscale_md(scale, host):
    if not scale:
        return ""
    md = ["", "## Scaling under lock_stat (%s kernels, %s vCPUs): on/off, measured "
          "and modelled" % (host.get("lockscale_arch", "pae"), host.get("lockscale_vcpus")), "",
          "w: lock_stat's wait on the page-table locks over the threads' running time "
          "(min(T, vCPUs) x elapsed); hold: page_table_lock's hold time likewise, split "
          "off. Model: on/off = (1 - w_on) / (1 - w_off). Faults/s are medians (min..max) "
          "over rounds; on/off is the ratio of the medians (range of the rounds' ratios).", "",
          "| kernel | kind | T | split=on | split=off | on/off measured | w off | hold off "
          "| w on | on/off model |", "|---|---|---|---|---|---|---|---|---|---|"]
    for e in scale:
        model = ["%.1f%%" % (100 * e["w_off"]), "%.1f%%" % (100 * e["hold_off"]),
                 "%.1f%%" % (100 * e["w_on"]), "%.2f" % e["predicted"]] \
            if "predicted" in e else ["-", "-", "-", "- (no lock_stat)"]
        md.append("| %s | %s | %d | %s | %s | %.2f (%.2f..%.2f) | %s |" % (
            e["kernel"], e["kind"], e["threads"], fmt(e["on"]), fmt(e["off"]),
            e["measured"], min(e["ratios"]), max(e["ratios"]), " | ".join(model)))
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
    scale = lockscale(rows["lockscale"], int(host.get("lockscale_vcpus", 2)))
    with open(os.path.join(out, "bench.json"), "w") as f:
        json.dump({"host": host, "rows": rows, "goals": gl, "lockscale": scale}, f, indent=1)
    text = markdown(host, rows, gl) + lockscale_md(scale, host)
    with open(os.path.join(out, "bench.md"), "w") as f:
        f.write(text)
    plot(out, rows)
    sys.stdout.write(text)
    print("bench: %s" % ", ".join(os.path.join(out, n) for n in
                                  ("bench.md", "bench.json", "bench.png")))


if __name__ == "__main__":
    main()
