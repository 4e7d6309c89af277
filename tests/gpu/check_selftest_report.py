#!/usr/bin/env python3
"""selftest_report.py on made-up gate results (no GPU): the counts per suite, a failed perf
gate's reason, torch.compile's column, a task without results and a suite that never ran are
reported as such, never as passed. Exits 1 naming what is wrong."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def write(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(obj, f)


def perf(speedup, verdict, status, failures=(), compile_speedup=None):
    j = {"status": status, "speedup": speedup, "ci95_low": speedup - 0.01, "ci95_high": speedup + 0.01,
         "verdict": verdict, "failures": list(failures),
         "configs": [{"statistics": {"fraction_of_peak": 0.5}}, {"statistics": {"fraction_of_peak": 0.75}}]}
    if compile_speedup:
        j["speedup_vs"] = {"torch.compile": {"speedup": compile_speedup, "ci95_low": compile_speedup - 0.1,
                                             "ci95_high": compile_speedup + 0.1, "verdict": "SLOWER"}}
    return j


def main():
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        res, tasks = os.path.join(tmp, "selftest"), os.path.join(tmp, "tasks")
        for suite, task in (("hip2hip", "good"), ("hip2hip", "slow"), ("hip2hip", "unrun"),
                            ("torch2hip", "eager"), ("triton2triton", "never")):
            write(os.path.join(tasks, suite, task, "task.json"), {"name": task})
        write(os.path.join(res, "hip2hip/good/baseline_correct.json"), {"status": "passed"})
        write(os.path.join(res, "hip2hip/good/solution_correct.json"), {"status": "passed"})
        write(os.path.join(res, "hip2hip/good/solution_faster.json"), perf(2.5, "FASTER", "passed"))
        write(os.path.join(res, "hip2hip/slow/baseline_correct.json"), {"status": "passed"})
        write(os.path.join(res, "hip2hip/slow/solution_correct.json"), {"status": "failed"})
        write(os.path.join(res, "hip2hip/slow/solution_faster.json"),
              perf(0.9, "SLOWER", "failed", ["candidate is slower on seen[0]"]))
        write(os.path.join(res, "torch2hip/eager/eager_correct.json"), {"status": "running"})
        write(os.path.join(res, "torch2hip/eager/solution_faster.json"), perf(3.0, "FASTER", "passed", (), 0.8))
        out = subprocess.run([sys.executable, os.path.join(HERE, "selftest_report.py"), res, "--tasks-dir", tasks],
                             capture_output=True, text=True)
        if out.returncode != 0:
            print(f"FAILED: selftest_report.py exited {out.returncode}: {out.stderr}")
            return 1
        text = out.stdout
        want = [
            "## hip2hip: 3 tasks",
            "- baseline correct: 2 passed, 0 failed, 1 not run",
            "- solution correct: 1 passed, 1 failed, 1 not run",
            "- solution FASTER: 1 passed, 1 failed, 1 not run",
            "| good | passed | passed | 2.500 [2.490, 2.510] FASTER |  | 50-75 |  |",
            "| slow | passed | failed | 0.900 [0.890, 0.910] SLOWER |  | 50-75 | candidate is slower on seen[0] |",
            "| unrun | not run | not run | not run |",
            # a gate that never finished (status running) is not run, and torch.compile has its column
            "- baseline correct: 0 passed, 0 failed, 1 not run",
            "| eager | running | not run | 3.000 [2.990, 3.010] FASTER | 0.800 [0.700, 0.900] SLOWER | 50-75 |  |",
            # a suite with tasks but no result at all still shows up
            "## triton2triton: 1 tasks",
            "| never | not run | not run | not run |",
        ]
        for line in want:
            if line not in text:
                problems.append(f"missing from the report: {line!r}")
        only = subprocess.run([sys.executable, os.path.join(HERE, "selftest_report.py"), res, "--tasks-dir", tasks,
                               "--suites", "torch2hip"], capture_output=True, text=True).stdout
        if "## hip2hip" in only or "## torch2hip: 1 tasks" not in only:
            problems.append("--suites torch2hip should report torch2hip alone")
    for p in problems:
        print("FAILED:", p)
    if problems:
        print("the report was:\n" + text)
        return 1
    print("selftest_report.py: counts, failures, torch.compile, unrun tasks and suites reported as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
