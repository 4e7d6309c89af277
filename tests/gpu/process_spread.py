#!/usr/bin/env python3
"""Calibrates the perf gate's per-process term (arena-perf --process-spread) from A/A runs.

Give it two or more result folders, each from its own A/A run (the baseline judged as the
candidate: ARENA_CANDIDATE=baseline, e.g. `tests/gpu/evidence.sh aa`), each holding
<suite>/<task>/perf.json. Every timed configuration gives a log speedup d, which is 0 but for
noise, and the rounds' standard error se (perf.json's rounds_se; a file written before the
process term holds an interval of the rounds alone, read back through t). The term's variance
is estimated as mean(d^2 - se^2) over all configurations (method of moments). Then, leaving
out one run at a time, the value from the others goes into that run's intervals as the gate
puts it (docs/DESIGN.md, "Performance": in quadrature with Welch-Satterthwaite degrees of
freedom, whole in a gate's combined interval), and the intervals that cover 1.0 are counted,
with and without it. Exit 0 with the report, 2 on input it cannot use (naming the file).
"""
import argparse
import glob
import json
import math
import os
import sys

# t_{0.975}(dof) for dof = 1..30, then a Cornish-Fisher expansion (as harness/src/stats.cpp).
T975 = [12.706204736, 4.302652730, 3.182446305, 2.776445105, 2.570581836, 2.446911851, 2.364624252, 2.306004135,
        2.262157163, 2.228138852, 2.200985160, 2.178812830, 2.160368656, 2.144786688, 2.131449546, 2.119905299,
        2.109815578, 2.100922040, 2.093024054, 2.085963447, 2.079613845, 2.073873068, 2.068657610, 2.063898562,
        2.059538553, 2.055529439, 2.051830516, 2.048407142, 2.045229642, 2.042272456]


def t975(dof):
    dof = max(1, int(math.floor(dof + 1e-6)))
    if dof <= 30:
        return T975[dof - 1]
    z = 1.959963984540054
    z2, v = z * z, float(dof)
    g1 = (z2 + 1) * z / 4
    g2 = ((5 * z2 + 16) * z2 + 3) * z / 96
    g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384
    g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160
    return z + g1 / v + g2 / v ** 2 + g3 / v ** 3 + g4 / v ** 4


class InputError(Exception):
    pass


def read_run(folder):
    """[(gate name, gate log speedup, [(log speedup, se, dof)])] of one run's timed perf gates."""
    files = sorted(glob.glob(os.path.join(folder, "*", "*", "perf.json")))
    if not files:
        raise InputError(f"{folder}: no <suite>/<task>/perf.json below it")
    gates = []
    for f in files:
        try:
            j = json.load(open(f))
        except (OSError, ValueError) as e:
            raise InputError(f"{f}: not readable JSON ({e})")
        if not isinstance(j, dict) or not isinstance(j.get("configs"), list):
            raise InputError(f"{f}: no configs list (not a perf gate's result)")
        spread_in_intervals = (j.get("method") or {}).get("process_spread", 0) > 0
        configs = []
        for c in j["configs"]:
            if c.get("error") or "speedup" not in c:
                continue
            where = f"{f}: configuration {c.get('label', '?')}"
            try:
                d = math.log(c["speedup"])
                dof = int(c["rounds"]) // 2 - 1  # pairs of rounds are the units
                if "rounds_se" in c:
                    se = float(c["rounds_se"])
                elif spread_in_intervals:
                    raise InputError(f"{where}: its interval holds the process term and it has no rounds_se")
                else:
                    se = math.log(c["ci95_high"] / c["ci95_low"]) / 2 / t975(dof)
            except (KeyError, TypeError, ValueError, ZeroDivisionError) as e:
                raise InputError(f"{where}: cannot read its speedup, rounds or interval ({e!r})")
            if dof < 1 or not (se >= 0) or not math.isfinite(se):
                raise InputError(f"{where}: too few rounds or no finite standard error")
            configs.append((d, se, dof))
        if configs:
            gates.append((os.path.relpath(os.path.dirname(f), folder), math.log(j["speedup"]), configs))
    if not gates:
        raise InputError(f"{folder}: no timed configuration in any perf.json")
    return gates


def estimate(runs):
    xs = [(d, se) for gates in runs for _, _, cs in gates for d, se, _ in cs]
    return math.sqrt(max(0.0, sum(d * d - se * se for d, se in xs) / len(xs))), len(xs)


def config_covers(d, se, dof, p):
    s = math.sqrt(se * se + p * p)
    eff = s ** 4 / (se ** 4 / dof) if se > 0 else 1e9
    return abs(d) <= t975(eff) * s


def gate_covers(d, configs, p):
    k = len(configs)
    var = sum(se * se for _, se, _ in configs) / (k * k) + p * p
    den = sum((se * se / (k * k)) ** 2 / dof for _, se, dof in configs)
    return abs(d) <= t975(var * var / den if den > 0 else 1e9) * math.sqrt(var)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+", help="result folders of A/A runs, one per run")
    ap.add_argument("--json", help="write the report here as JSON too")
    a = ap.parse_args()
    if len(a.runs) < 2:
        print("process_spread: give at least two A/A runs' result folders (one run cannot show an effect "
              "that changes from run to run)", file=sys.stderr)
        return 2
    try:
        runs = [read_run(r) for r in a.runs]
    except InputError as e:
        print(f"process_spread: {e}", file=sys.stderr)
        return 2
    p_all, n = estimate(runs)
    report = {"runs": len(runs), "configurations": n, "process_spread": p_all, "leave_one_run_out": []}
    totals = {"configs": 0, "gates": 0, "configs_rounds_only": 0, "gates_rounds_only": 0, "n_configs": 0, "n_gates": 0}
    for i, gates in enumerate(runs):
        p, _ = estimate(runs[:i] + runs[i + 1:])
        row = {"run": a.runs[i], "process_spread": p, "configs": 0, "configs_rounds_only": 0, "n_configs": 0,
               "gates": 0, "gates_rounds_only": 0, "n_gates": len(gates)}
        for _, gd, cs in gates:
            for d, se, dof in cs:
                row["n_configs"] += 1
                row["configs"] += config_covers(d, se, dof, p)
                row["configs_rounds_only"] += config_covers(d, se, dof, 0.0)
            row["gates"] += gate_covers(gd, cs, p)
            row["gates_rounds_only"] += gate_covers(gd, cs, 0.0)
        for k in totals:
            totals[k] += row[k]
        report["leave_one_run_out"].append(row)
    report["covered"] = totals
    print(f"{n} configurations in {len(runs)} A/A runs: process spread {100 * p_all:.3f} % "
          f"(arena-perf --process-spread {p_all:.4f})")
    print("leaving out one run at a time, intervals covering 1.0 (with the others' value / rounds alone):")
    for row in report["leave_one_run_out"]:
        print(f"  {row['run']}: value {100 * row['process_spread']:.3f} %, configurations {row['configs']}/"
              f"{row['n_configs']} / {row['configs_rounds_only']}, gates {row['gates']}/{row['n_gates']} / "
              f"{row['gates_rounds_only']}")
    print(f"  all: configurations {totals['configs']}/{totals['n_configs']} / {totals['configs_rounds_only']}, "
          f"gates {totals['gates']}/{totals['n_gates']} / {totals['gates_rounds_only']} (a 95 % interval should "
          f"cover about 95 %)")
    if a.json:
        with open(a.json, "w") as out:
            json.dump(report, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
