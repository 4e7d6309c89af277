#!/usr/bin/env python3
"""The process-spread calibration (tests/gpu/process_spread.py) on synthetic A/A runs, without
a GPU: runs whose every configuration carries a per-run process effect of known spread. It
must recover the spread, show that intervals of the rounds alone miss 1.0 far more often than
with the term, and refuse input it cannot use, naming the file."""
import json
import math
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "gpu", "process_spread.py")
failures = []


def check(cond, what):
    print(("ok      " if cond else "FAILED: ") + what)
    if not cond:
        failures.append(what)


def write_run(folder, rng, process_sd, rounds_se, tasks=8, configs=4, rounds=16):
    """One A/A run: per task one process effect shared by its configurations (the same two
    workers time them all), plus each configuration's own share and its rounds' noise."""
    for t in range(tasks):
        effect = rng.gauss(0, process_sd)
        cs, logs = [], []
        for c in range(configs):
            d = effect + rng.gauss(0, rounds_se)
            logs.append(d)
            cs.append({"label": f"seen[{c}]", "speedup": math.exp(d), "rounds_se": rounds_se, "rounds": rounds,
                       "ci95_low": math.exp(d - 0.01), "ci95_high": math.exp(d + 0.01), "verdict": "SAME"})
        d_gate = sum(logs) / configs
        path = os.path.join(folder, "hip2hip", f"task{t}")
        os.makedirs(path)
        with open(os.path.join(path, "perf.json"), "w") as f:
            json.dump({"speedup": math.exp(d_gate), "configs": cs, "method": {"process_spread": 0.0015}}, f)


def run(*args):
    p = subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


with tempfile.TemporaryDirectory() as tmp:
    rng = random.Random(20261127)
    folders = []
    for r in range(6):
        folder = os.path.join(tmp, f"run{r}")
        write_run(folder, rng, process_sd=0.003, rounds_se=0.0005)
        folders.append(folder)
    out_json = os.path.join(tmp, "report.json")
    rc, text = run(*folders, "--json", out_json)
    check(rc == 0, f"six synthetic A/A runs are read (exit {rc}): {text[-300:]}")
    if rc == 0:
        rep = json.load(open(out_json))
        check(rep["configurations"] == 6 * 8 * 4, f"every configuration counted ({rep['configurations']})")
        check(0.002 < rep["process_spread"] < 0.004,
              f"the process spread is recovered: {100 * rep['process_spread']:.3f} % for 0.300 %")
        cov = rep["covered"]
        check(cov["configs"] >= 0.88 * cov["n_configs"],
              f"with the term, configuration intervals cover 1.0 ({cov['configs']}/{cov['n_configs']})")
        check(cov["configs_rounds_only"] < 0.5 * cov["n_configs"],
              f"from the rounds alone they do not ({cov['configs_rounds_only']}/{cov['n_configs']})")
        check(cov["gates"] >= 0.85 * cov["n_gates"] and cov["gates_rounds_only"] < 0.5 * cov["n_gates"],
              f"the same for gates, the term taken whole ({cov['gates']} and {cov['gates_rounds_only']} of "
              f"{cov['n_gates']})")
        check("--process-spread 0.00" in text, "the report names the option's value")

    rc, text = run(folders[0])
    check(rc == 2 and "at least two" in text, f"one run is refused (exit {rc})")

    broken = os.path.join(tmp, "broken")
    os.makedirs(os.path.join(broken, "hip2hip", "gelu"))
    bad_file = os.path.join(broken, "hip2hip", "gelu", "perf.json")
    with open(bad_file, "w") as f:
        f.write("{ not json")
    rc, text = run(folders[0], broken)
    check(rc == 2 and bad_file in text, f"a file that is not JSON is named (exit {rc}): {text.strip()[:200]}")

    no_se = os.path.join(tmp, "no_se")
    os.makedirs(os.path.join(no_se, "hip2hip", "gelu"))
    with open(os.path.join(no_se, "hip2hip", "gelu", "perf.json"), "w") as f:
        json.dump({"speedup": 1.0, "method": {"process_spread": 0.0015},
                   "configs": [{"label": "seen[0]", "speedup": 1.0, "rounds": 16, "ci95_low": 0.99,
                                "ci95_high": 1.01}]}, f)
    rc, text = run(folders[0], no_se)
    check(rc == 2 and "seen[0]" in text and "rounds_se" in text,
          f"an interval that holds the term cannot be read back without rounds_se (exit {rc})")

    empty = os.path.join(tmp, "empty")
    os.makedirs(empty)
    rc, text = run(folders[0], empty)
    check(rc == 2 and "no <suite>/<task>/perf.json" in text, f"a folder without results is named (exit {rc})")

print(f"{len(failures)} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
