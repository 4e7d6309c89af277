#!/usr/bin/env python3
"""Task validation's results as tables (docs/gpu-evidence.md): for each suite, how many tasks'
baseline (eager PyTorch for torch2hip) and expert solution passed correctness, and per task the
solution's speedup over the baseline (and over torch.compile where timed) with its interval,
the fraction of peak it reached and why a gate failed. Reads
<build>/arena/results/selftest/<suite>/<task>/*.json; a gate without a result is "not run",
never passed.

    selftest_report.py <build>/arena/results/selftest [--tasks-dir tasks] [--suites a,b]

With --tasks-dir, tasks (and whole suites) that have no result at all are listed as not run
too: a suite whose task validation stopped running must not drop out of the report. --suites
keeps only the suites named."""
import argparse
import glob
import json
import os
import sys

CORRECT = ("baseline_correct", "eager_correct", "solution_correct")


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        return {"status": f"unreadable ({e})"}


def status(j):
    return "not run" if j is None else j.get("status", "?")


def interval(x):
    return f"{x['speedup']:.3f} [{x['ci95_low']:.3f}, {x['ci95_high']:.3f}] {x['verdict']}"


def perf_cells(j):
    """speedup, vs torch.compile, % of peak, failures of a solution_faster result."""
    if j is None:
        return "not run", "", "", ""
    if "speedup" not in j:
        return j.get("status", "?"), "", "", "; ".join(j.get("failures", []))[:200]
    extra = (j.get("speedup_vs") or {}).get("torch.compile")
    peaks = [c["statistics"]["fraction_of_peak"] for c in j.get("configs", [])
             if (c.get("statistics") or {}).get("fraction_of_peak") is not None]
    peak = f"{100 * min(peaks):.0f}-{100 * max(peaks):.0f}" if peaks else ""
    failures = [f for f in j.get("failures", []) if f]
    return interval(j), interval(extra) if extra else "", peak, "; ".join(failures)[:200]


def report(root, tasks_dir=None, only=None):
    lines = []
    suites = set(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d))) if os.path.isdir(root) else set()
    if tasks_dir:
        suites |= {d for d in os.listdir(tasks_dir) if glob.glob(os.path.join(tasks_dir, d, "*", "task.json"))}
    if only:
        suites &= set(only)
    for suite in sorted(suites):
        tasks = set(os.path.basename(d) for d in glob.glob(os.path.join(root, suite, "*")) if os.path.isdir(d))
        if tasks_dir and os.path.isdir(os.path.join(tasks_dir, suite)):
            tasks |= {d for d in os.listdir(os.path.join(tasks_dir, suite))
                      if os.path.isfile(os.path.join(tasks_dir, suite, d, "task.json"))}
        counts = {"baseline correct": [0, 0, 0], "solution correct": [0, 0, 0], "solution FASTER": [0, 0, 0]}
        rows = []
        for task in sorted(tasks):
            d = os.path.join(root, suite, task)
            base = load(os.path.join(d, "baseline_correct.json")) or load(os.path.join(d, "eager_correct.json"))
            sol = load(os.path.join(d, "solution_correct.json"))
            perf = load(os.path.join(d, "solution_faster.json"))
            for key, j in (("baseline correct", base), ("solution correct", sol), ("solution FASTER", perf)):
                c = counts[key]
                if j is None or j.get("status") == "running":
                    c[2] += 1
                elif j.get("status") == "passed":
                    c[0] += 1
                else:
                    c[1] += 1
            speed, versus, peak, why = perf_cells(perf)
            rows.append(f"| {task} | {status(base)} | {status(sol)} | {speed} | {versus} | {peak} | {why} |")
        lines.append(f"## {suite}: {len(tasks)} tasks")
        lines.append("")
        for key, (ok, bad, missing) in counts.items():
            lines.append(f"- {key}: {ok} passed, {bad} failed, {missing} not run")
        lines.append("")
        lines.append("| task | baseline correct | solution correct | solution speedup [95% CI] | vs torch.compile [95% CI] | solution % of peak | failures |")
        lines.append("|---|---|---|---|---|---:|---|")
        lines.extend(rows)
        lines.append("")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root", help="<build>/arena/results/selftest")
    ap.add_argument("--tasks-dir", help="the tasks folder, so that tasks without any result count as not run")
    ap.add_argument("--suites", help="comma-separated suites to report (default: all)")
    a = ap.parse_args()
    if not os.path.isdir(a.root) and not a.tasks_dir:
        sys.exit(f"selftest_report.py: {a.root} is not a folder (run task validation first)")
    print(report(a.root, a.tasks_dir, a.suites.split(",") if a.suites else None))


if __name__ == "__main__":
    main()
