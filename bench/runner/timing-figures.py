#!/usr/bin/env python3
"""Tables of bench/runner/timing-bench.sh from its results folders.

    timing-figures.py [OUT]              the timing bench's phases under OUT
    timing-figures.py --sweep DIR...     sweep folders: points resolved or not

For each phase folder (quiet-stream, quiet-numa02, stress-stream,
jobs2-stream) it reads the runner's summary.json (per-variant statistics)
and, per run, result (wall_ms) and timeseries.csv (the guest's clock at
the last sample), and prints Markdown: spread per variant, the smallest
on/off difference 5 repetitions resolve at p < 0.05, and the means of
the loaded phases against the quiet one.
"""
import csv
import glob
import json
import math
import os
import sys

COUNTERS = ("numa_pte_updates", "numa_hint_faults", "numa_pages_migrated")
# two-sided t quantile at 0.975 by degrees of freedom (Welch's df rounded down)
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365,
        8: 2.306, 9: 2.262, 10: 2.228, 12: 2.179, 16: 2.120, 20: 2.086, 30: 2.042}


def t975(df):
    best = max(k for k in T975 if k <= max(1, int(df)))
    return T975[best]


def metric_name(phase):
    # numa02 runs for a fixed number of rows of fixed time: its work is the rate
    return "rate_mean" if "numa02" in phase else "work_s"


def load(folder):
    path = os.path.join(folder, "summary.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return {v["name"]: v for v in json.load(f)["variants"]}


def last_guest_s(path):
    last = None
    with open(path) as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            if row.get("status") == "ok" and row.get("guest_s"):
                last = float(row["guest_s"])
    return last


def wall_per_guest_s(folder, variant):
    """Median over runs of host wall seconds per guest second (boot included)."""
    ratios = []
    for rep in glob.glob(os.path.join(folder, "runs", variant, "rep*")):
        try:
            with open(os.path.join(rep, "result")) as f:
                kv = dict(line.strip().split("=", 1) for line in f if "=" in line)
            guest = last_guest_s(os.path.join(rep, "timeseries.csv"))
        except OSError:
            continue
        if guest and "wall_ms" in kv:
            ratios.append(float(kv["wall_ms"]) / 1000 / guest)
    ratios.sort()
    return ratios[len(ratios) // 2] if ratios else float("nan")


def stat(v, name):
    return v["metrics"].get(name) or {}


def worst_dev(m):
    """Largest distance of a run from the mean, % of the mean."""
    if not m or not m.get("mean"):
        return float("nan")
    return 100 * max(m["max"] - m["mean"], m["mean"] - m["min"]) / m["mean"]


def pct(x, digits=3):
    return "-" if x is None or math.isnan(x) else f"{x:.{digits}f} %"


def num(x, digits=3):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def spread_table(root, phase, variants):
    name = metric_name(phase)
    print(f"\n{phase}: {name} and kernel counters per variant\n")
    print(f"| variant | n | {name} mean | CV | worst run from mean: "
          + " | ".join(COUNTERS) + " | D measured | wall s per guest s |")
    print("|---|---|---|---|" + "---|" * len(COUNTERS) + "---|---|")
    for vname, v in variants.items():
        m = stat(v, name)
        cells = [pct(worst_dev(stat(v, c)), 2) for c in COUNTERS]
        d = stat(v, "dilation").get("mean")
        cost = wall_per_guest_s(os.path.join(root, phase), vname)
        print(f"| {vname} | {m.get('n', 0)} | {num(m.get('mean'), 4)} | "
              f"{pct(100 * (m.get('cv') or float('nan')))} | " + " | ".join(cells)
              + f" | {num(d, 1)} | {num(cost, 1)} |")


def detectable(off, on, name):
    """Smallest on/off difference (% of off) significant at p < 0.05 (Welch)."""
    a, b = stat(off, name), stat(on, name)
    if not a.get("n") or not b.get("n") or a["n"] < 2 or b["n"] < 2:
        return float("nan"), float("nan")
    va, vb = a["stddev"] ** 2 / a["n"], b["stddev"] ** 2 / b["n"]
    se = math.sqrt(va + vb)
    df = (va + vb) ** 2 / ((va ** 2 / (a["n"] - 1) if va else 0) +
                           (vb ** 2 / (b["n"] - 1) if vb else 0) or 1e-300)
    diff = 100 * (b["mean"] - a["mean"]) / a["mean"]
    return 100 * t975(min(df, a["n"] + b["n"] - 2)) * se / a["mean"], diff


def detect_table(root, phases):
    print("\nSmallest on/off difference resolved at p < 0.05 (Welch, these repetitions)\n")
    print("| phase | mode | smallest resolved | measured on vs off |")
    print("|---|---|---|---|")
    for phase, variants in phases.items():
        for mode in ("wall", "det"):
            off, on = variants.get(mode + "-off"), variants.get(mode + "-on")
            if not off or not on:
                continue
            mde, diff = detectable(off, on, metric_name(phase))
            print(f"| {phase} | {mode} | {pct(mde)} | {pct(diff)} |")


def loaded_table(phases):
    quiet = phases.get("quiet-stream")
    others = [p for p in ("stress-stream", "jobs2-stream") if p in phases]
    if not quiet or not others:
        return
    print("\nwork_s means with the host loaded, against the quiet run\n")
    print("| variant | quiet | " + " | ".join(f"{p} (apart)" for p in others) + " |")
    print("|---|---|" + "---|" * len(others))
    for vname, v in quiet.items():
        q = stat(v, "work_s").get("mean")
        cells = []
        for p in others:
            o = stat(phases[p].get(vname, {"metrics": {}}), "work_s").get("mean")
            cells.append("-" if not q or o is None else
                         f"{o:.4f} ({100 * abs(o - q) / q:.3f} %)")
        print(f"| {vname} | {num(q, 4)} | " + " | ".join(cells) + " |")


SWEEP_METRICS = ("work_s", "cost_total", "time_to_conv_90_s")


def ci(m):
    """Mean and 95 % confidence half-width (t), or None."""
    if not m or not m.get("n") or m["n"] < 2 or m.get("stddev") is None:
        return None
    return m["mean"], t975(m["n"] - 1) * m["stddev"] / math.sqrt(m["n"])


def sweep_tables(folders):
    """Per sweep point mean +- 95 % CI; adjacent points resolved when the CIs do not overlap."""
    for folder in folders:
        variants = load(folder)
        if not variants:
            continue
        print(f"\n{os.path.basename(folder.rstrip('/'))}: mean +- 95 % CI per point "
              "(* = CI apart from the previous point's)\n")
        print("| point | n | " + " | ".join(SWEEP_METRICS) + " |")
        print("|---|---|" + "---|" * len(SWEEP_METRICS))
        prev = {}
        resolved = {k: 0 for k in SWEEP_METRICS}
        pairs = 0
        for name, v in variants.items():
            cells = []
            for k in SWEEP_METRICS:
                c = ci(stat(v, k))
                mark = ""
                if c and prev.get(k):
                    apart = abs(c[0] - prev[k][0]) > c[1] + prev[k][1]
                    resolved[k] += apart
                    mark = " *" if apart else ""
                cells.append("-" if not c else f"{c[0]:.4g} +- {c[1]:.2g}{mark}")
                prev[k] = c
            pairs += 1
            print(f"| {name.split('=')[-1]} | {stat(v, 'work_s').get('n', 0)} | "
                  + " | ".join(cells) + " |")
        print("\nadjacent pairs resolved: " + ", ".join(
            f"{k} {resolved[k]}/{pairs - 1}" for k in SWEEP_METRICS))


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--sweep":
        sweep_tables(sys.argv[2:])
        return
    root = sys.argv[1] if len(sys.argv) > 1 else "results/timing-bench"
    phases = {}
    for phase in ("quiet-stream", "quiet-numa02", "stress-stream", "jobs2-stream"):
        variants = load(os.path.join(root, phase))
        if variants:
            phases[phase] = variants
    if not phases:
        sys.exit(f"no finished phase under {root}")
    for phase in phases:
        spread_table(root, phase, phases[phase])
    detect_table(root, phases)
    loaded_table(phases)
    print("\nHost load (uptime before and after each phase):\n")
    for phase in phases:
        try:
            with open(os.path.join(root, phase + ".load")) as f:
                loads = [line.split("load average:")[-1].strip() for line in f]
            print(f"- {phase}: " + "; ".join(loads))
        except OSError:
            pass


if __name__ == "__main__":
    main()
