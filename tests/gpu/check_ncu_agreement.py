#!/usr/bin/env python3
"""Checks the perf gate's times against Nsight Compute: for each task, runs its perf gate (CTest
pulls in the compile and correctness gates it needs), then launches baseline and candidate
once each under ncu on every seen configuration (arena-profile launch, the perf gate's inputs,
caches flushed by ncu, clocks left alone) and compares:
  - each side's median time with ncu's gpu__time_duration summed over the launch's kernels:
    within 3 % or 1 us per kernel (the gate times the span of the launch's work, gaps between
    its kernels included);
  - the gate's speedup with the ratio of ncu's durations: within 2 %.

    check_ncu_agreement.py --build <build dir> --ctest <ctest> [--out result.json] <suite/task>...

Exit status 0 agree, 1 disagree, 77 no GPU or no ncu."""
import argparse
import csv
import glob
import io
import json
import os
import shutil
import subprocess
import sys

SKIP = 77


def find_ncu():
    for c in [os.environ.get("ARENA_NCU"), shutil.which("ncu"), "/usr/local/cuda/bin/ncu",
              *sorted(glob.glob("/opt/nvidia/nsight-compute/*/ncu"))]:
        if c and os.access(c, os.X_OK):
            return c
    return None


def ncu_duration_us(ncu, profile_tool, task_file, kernel, config):
    """(sum of kernel durations in us, number of kernels) of one launch."""
    cmd = [ncu, "--clock-control", "none", "--profile-from-start", "off", "--csv", "--page", "raw",
           "--print-units", "base", "--metrics", "gpu__time_duration.sum",
           profile_tool, "launch", "--task", task_file, "--kernel", kernel, "--config", str(config)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"ncu failed (exit {p.returncode}): {p.stderr[-800:]}{p.stdout[-800:]}")
    rows = [r for r in csv.reader(io.StringIO(p.stdout[p.stdout.index('"ID"'):]))]
    head = rows[0]
    col = head.index("gpu__time_duration.sum")
    values = []
    for r in rows[1:]:
        text = r[col].replace(",", "") if len(r) > col else ""
        try:
            values.append(float(text))
        except ValueError:
            continue  # the units row, or a kernel ncu could not measure
    values = [v for v in values if v > 0]
    if not values:
        raise RuntimeError(f"ncu recorded no kernel: {p.stdout[-800:]}")
    return sum(values) / 1e3, len(values)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--ctest", default="ctest")
    ap.add_argument("--out")
    ap.add_argument("--no-run", action="store_true", help="use the perf gates' results already in the build")
    ap.add_argument("tasks", nargs="+")
    a = ap.parse_args()
    a.build = os.path.abspath(a.build)
    if not os.path.exists("/dev/nvidiactl"):
        print("SKIPPED: no NVIDIA GPU here (Nsight Compute needs one)")
        return SKIP
    ncu = find_ncu()
    if not ncu:
        print("SKIPPED: Nsight Compute (ncu) is not installed here (set ARENA_NCU)")
        return SKIP
    profile_tool = os.path.join(a.build, "harness", "arena-profile")
    regex = "^(" + "|".join(a.tasks) + ")/perf$"
    if not a.no_run:
        # The correctness gates these need run four at a time on the GPU; perf gates alone.
        spec = os.path.join(a.build, "arena_resources.json")
        p = subprocess.run([a.ctest, "-R", regex, "-j4", "--resource-spec-file", spec, "--output-on-failure"],
                           cwd=a.build, capture_output=True, text=True)
        if p.returncode != 0:
            print(f"the perf gates did not pass:\n{p.stdout[-3000:]}")
            return 1
    rows, ok = [], True
    print(f"{'task':24} {'config':8} {'side':9} {'gate us':>9} {'ncu us':>9} {'diff':>7} {'speedup':>8} {'ncu ratio':>9} {'diff':>7}")
    for task in a.tasks:
        perf = json.load(open(os.path.join(a.build, "arena", "results", task, "perf.json")))
        task_file = next(t for t in glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                           "tasks", task, "task.json")))
        kdir = os.path.join(a.build, "arena", "kernels", task)
        sides = {"baseline": os.path.join(kdir, "baseline.so"), "candidate": os.path.join(kdir, "candidate.so")}
        for i, c in enumerate(perf["configs"]):
            got = {}
            for side, kernel in sides.items():
                ncu_us, kernels = ncu_duration_us(ncu, profile_tool, task_file, kernel, i)
                gate_us = c[side]["median_ms"] * 1e3
                diff = gate_us / ncu_us - 1
                agree = abs(gate_us - ncu_us) <= max(0.03 * ncu_us, 1.0 * kernels)
                ok &= agree
                got[side] = ncu_us
                rows.append({"task": task, "config": c["label"], "side": side, "gate_us": gate_us, "ncu_us": ncu_us,
                             "kernels": kernels, "agree": agree})
                print(f"{task:24} {c['label']:8} {side:9} {gate_us:9.2f} {ncu_us:9.2f} {diff:+7.2%}"
                      + ("" if agree else "  DISAGREES"))
            ratio = got["baseline"] / got["candidate"]
            sdiff = c["speedup"] / ratio - 1
            agree = abs(sdiff) <= 0.02
            ok &= agree
            rows.append({"task": task, "config": c["label"], "speedup": c["speedup"], "ncu_ratio": ratio,
                         "agree": agree})
            print(f"{task:24} {c['label']:8} {'':9} {'':9} {'':9} {'':7} {c['speedup']:8.4f} {ratio:9.4f} {sdiff:+7.2%}"
                  + ("" if agree else "  DISAGREES"))
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"device": perf.get("device", {}).get("name"), "rows": rows, "agree": ok}, f, indent=1)
    print("agree" if ok else "DISAGREE")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
