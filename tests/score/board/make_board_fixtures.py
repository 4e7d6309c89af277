#!/usr/bin/env python3
"""Writes the board's fixture runs (tests/score/board/runs/<folder>/scores.json).

Each file has the shape arena-score writes (harness/score/scorer.cpp: tasks with their gates,
speedups and intervals; context with category, agent, GPU, driver, check log and sources), with
numbers chosen so the board's results can be worked out by hand (tests/score/board/README.md):

  r1-alpha      agent alpha (model alpha-1) on an H100, 2026-11-01: hip2hip, torch2hip, triton2triton;
                hip2hip/gemm_f32 at 14x (an audit entry); a trajectory of 5 checks
  r2-beta       agent beta (model beta-2), 2026-11-02: the same tasks, weaker; a transcript that
                reads a task folder (an audit entry)
  r2-beta-again r2-beta scored twice (the same Test.xml inputs): counted once
  r3-alpha-a, r3-alpha-b  agent alpha, 2026-11-05, hip2hip: one run's two shards from two hosts
  r4-beta-failed  agent beta, 2026-11-06, triton2triton: the agent timed out, nothing compiled

    python3 tests/score/board/make_board_fixtures.py
"""
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "runs")
DAY = 86400
T0 = 1793491200  # 2026-11-01T00:00:00Z

CATEGORY = {"gelu_f16": "elementwise", "reduce_sum": "reduction", "gemm_f32": "gemm",
            "swish_residual_f32": "elementwise", "rmsnorm_f32": "normalization",
            "softmax_triton": "reduction", "matmul_triton": "gemm"}


def task(suite, name, outcome, speedup=None, half=0.05, vs=None, peak=None):
    """outcome: correct | slower | wrong_unseen | wrong_seen | no_compile"""
    compiled = outcome != "no_compile"
    seen = outcome in ("correct", "slower", "wrong_unseen")
    unseen = outcome in ("correct", "slower")
    gates = {"compile": {"outcome": "passed" if compiled else "failed", "time_s": 3.0}}
    if not compiled:
        gates["compile"]["detail"] = "exit code 1"
        for g in ("correct_seen", "correct_unseen", "perf"):
            gates[g] = {"outcome": "not run", "detail": "fixture " + suite + "/" + name + "/compiled failed"}
    else:
        gates["correct_seen"] = {"outcome": "passed" if seen else "failed", "configs_passed": 3 if seen else 1,
                                 "configs_total": 3, "time_s": 8.0}
        gates["correct_unseen"] = {"outcome": "passed" if unseen else "failed", "configs_passed": 10 if unseen else 7,
                                   "configs_total": 10, "time_s": 9.0}
        gates["perf"] = {"outcome": "passed" if outcome == "correct" else ("failed" if outcome == "slower" else "not run"),
                         "time_s": 20.0}
    correct = outcome in ("correct", "slower")
    t = {"id": f"{suite}/{name}", "suite": suite, "task": name, "agent": "finished", "compiled": compiled,
         "correct_seen": seen, "correct_unseen": unseen, "perf_valid": correct, "correct": correct, "judged": True,
         "candidate_fallback": False, "reference": "torch eager" if suite == "torch2hip" else "baseline",
         "bottleneck": {}, "errors": [], "notes": [], "agent_seconds": 600.0, "fraction_of_peak": peak,
         "verdict": None, "device": "NVIDIA H100 80GB HBM3", "speedup": None, "ci95_low": None, "ci95_high": None,
         "aka_score": 20 if compiled else 0, "speedup_vs": {}, "gates": gates, "configs": []}
    if not compiled:
        t["errors"] = ["compile: candidate.hip:3: error: expected ';'"]
    elif not seen:
        t["errors"] = ["correct_seen: seen[1] (N=4096): 12 of 4096 mismatched"]
    elif not unseen:
        t["errors"] = ["correct_unseen: unseen[3] (N=999): 3 of 999 mismatched"]
    if correct:
        lo, hi = speedup * (1 - half), speedup * (1 + half)
        t.update(speedup=speedup, ci95_low=lo, ci95_high=hi, aka_score=120 + 100 * speedup,
                 verdict="FASTER" if lo > 1.01 else ("SLOWER" if hi < 0.99 else "SAME"))
        t["configs"] = [{"label": f"seen[{i}]", "params": f"N={4096 << i}", "verdict": t["verdict"], "speedup": speedup,
                         "ci95_low": lo, "ci95_high": hi, "fraction_of_peak": peak} for i in range(2)]
        if vs:
            t["speedup_vs"] = {"torch.compile": {"speedup": vs, "ci95_low": vs * 0.97, "ci95_high": vs * 1.03}}
        if outcome == "slower":
            t["notes"] = ["perf: the gate failed on a confirmed slowdown; the speedup counts"]
    return t


def context(t, agent, model, checks=None, outside=None, status="finished"):
    c = {"category": CATEGORY[t["task"]], "agent": agent, "model": model, "agent_status": status, "sandboxed": True,
         "gpu": "NVIDIA H100 80GB HBM3", "driver_version": 13000, "runtime_version": 13000,
         "checks_kept": True, "checks": checks or [], "outside_reads": outside or [],
         "start_source": "__global__ void k(const float* x, float* y, int n) {\n  int i = threadIdx.x;\n  y[i] = x[i];\n}\n",
         "candidate_source": "__global__ void k(const float* x, float* y, int n) {\n"
                             "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = x[i];\n}\n"}
    if outside:
        c["transcript_tail"] = "\n".join(["reading the workspace"] + outside + ["done"])
    return c


def check(n, t, stage, rc, correct=None, speedup=None):
    c = {"n": n, "received": f"2026-11-01T00:{n:02d}:00Z", "elapsed_s": 60.0 * n, "script": "check", "exit": rc,
         "stage": stage, "compiled": stage != "compile", "candidate_hash": f"{(n * 0x9E3779B97F4A7C15) & (2**64 - 1):016x}", "candidate_bytes": 100 + n}
    if correct is not None:
        c.update(correct=correct, configs_passed=3 if correct else 1, configs_total=3)
    if speedup is not None:
        c.update(speedup=speedup, ci95_low=speedup * 0.98, ci95_high=speedup * 1.02,
                 verdict="FASTER" if speedup * 0.98 > 1.01 else "SAME")
    return c


def write(folder, run, day, site, tasks, agent, model, extra_ctx=None, status="finished"):
    ctx = {}
    for t in tasks:
        ctx[t["id"]] = context(t, agent, model, status=status)
        ctx[t["id"]].update((extra_ctx or {}).get(t["id"], {}))
    start = T0 + day * DAY
    scores = {"schema": 1, "tool": "arena-score", "run": run, "created": f"2026-11-{day + 1:02d}T12:00:00Z",
              "inputs": [{"file": f"/build/{site}/Testing/20261101-0000/Test.xml", "site": site,
                          "build_name": "Linux-c++", "build_stamp": f"2026110{day + 1}-0000-Experimental",
                          "start_test_time": start, "end_test_time": start + 3600, "wall_s": 3600.0,
                          "tests": 4 * len(tasks), "gate_tests": 4 * len(tasks), "fuzz_seeds": ["1519564625"]}],
              "tasks": tasks, "warnings": [], "notice": None, "duplicates": [], "conflicts": [],
              "context": {"kernelarena_version": "0.1.0", "tasks": ctx}}
    os.makedirs(os.path.join(OUT, folder))
    with open(os.path.join(OUT, folder, "scores.json"), "w") as f:
        json.dump(scores, f, indent=1, sort_keys=True)
        f.write("\n")
    return scores


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    alpha_checks = [check(1, None, "compile", 1), check(2, None, "correct", 1, correct=False),
                    check(3, None, "done", 0, correct=True, speedup=8.0), check(4, None, "done", 0, correct=True, speedup=14.5),
                    check(5, None, "done", 0, correct=True, speedup=11.0)]
    r1 = [task("hip2hip", "gelu_f16", "correct", 2.0, peak=0.62), task("hip2hip", "reduce_sum", "correct", 1.5, peak=0.55),
          task("hip2hip", "gemm_f32", "correct", 14.0, peak=0.95),
          task("torch2hip", "swish_residual_f32", "correct", 3.0, vs=1.2, peak=0.7),
          task("torch2hip", "rmsnorm_f32", "wrong_unseen"),
          task("triton2triton", "softmax_triton", "correct", 1.1, peak=0.5),
          task("triton2triton", "matmul_triton", "slower", 0.8, peak=0.3)]
    for c, src in zip(alpha_checks, ["k(x) {\n  y = x\n", "k(x) {\n  y = x;\n}\n", "k(x) {\n  y = f(x);\n}\n"]):
        c["source"] = src  # what arena-score reads from the runner's copies
    write("r1-alpha", "r1-alpha", 0, "gpu-node-01", r1, "alpha", "alpha-1",
          {"hip2hip/gemm_f32": {"checks": alpha_checks}})
    r2 = [task("hip2hip", "gelu_f16", "correct", 1.2, peak=0.4), task("hip2hip", "reduce_sum", "wrong_seen"),
          task("hip2hip", "gemm_f32", "no_compile"),
          task("torch2hip", "swish_residual_f32", "correct", 1.5, vs=0.7, peak=0.5),
          task("torch2hip", "rmsnorm_f32", "correct", 1.1, vs=0.9, peak=0.45),
          task("triton2triton", "softmax_triton", "correct", 1.0, half=0.02, peak=0.5),
          task("triton2triton", "matmul_triton", "wrong_unseen")]
    outside = ["$ cat /work/project/tasks/hip2hip/gelu_f16/solution.hip"]
    write("r2-beta", "r2-beta", 1, "gpu-node-02", r2, "beta", "beta-2", {"hip2hip/gelu_f16": {"outside_reads": outside}})
    # The same run scored again later: its own folder and name, the same inputs.
    s = write("r2-beta-again", "r2-beta-2", 1, "gpu-node-02", r2, "beta", "beta-2",
              {"hip2hip/gelu_f16": {"outside_reads": outside}})
    s["created"] = "2026-11-03T12:00:00Z"
    with open(os.path.join(OUT, "r2-beta-again", "scores.json"), "w") as f:
        json.dump(s, f, indent=1, sort_keys=True)
        f.write("\n")
    # hip2hip/reduce_sum in r3: its kept timed samples were less accurate than any checked launch (an audit entry).
    write("r3-alpha-a", "r3-alpha", 4, "gpu-node-03",
          [task("hip2hip", "gelu_f16", "correct", 2.4, peak=0.7), task("hip2hip", "reduce_sum", "correct", 1.8, peak=0.6)],
          "alpha", "alpha-1", {"hip2hip/reduce_sum": {"kept_max_rel_err": 4e-3, "correct_max_rel_err": 1e-3},
                               "hip2hip/gelu_f16": {"kept_max_rel_err": 1.5e-3, "correct_max_rel_err": 1e-3}})
    b = write("r3-alpha-b", "r3-alpha", 4, "gpu-node-04", [task("hip2hip", "gemm_f32", "correct", 3.0, peak=0.8)],
              "alpha", "alpha-1")
    write("r4-beta-failed", "r4-beta-failed", 5, "gpu-node-02",
          [task("triton2triton", "softmax_triton", "no_compile"), task("triton2triton", "matmul_triton", "no_compile")],
          "beta", "beta-2", status="timed_out")


if __name__ == "__main__":
    main()
