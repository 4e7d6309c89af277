#!/usr/bin/env python3
"""The exploit cases that hand over device code Triton did not build from the checked source
(tests/exploits/triton2triton, class "device code from elsewhere"), without a GPU: each is
recorded on the CPU (triton_cpu_recorder.py) and its images are built again by the trusted
builder, which must find the kernel's image different from the recorder's. A case marked
`"gate": "correct_unseen"` poisons what a later process loads for the unseen configurations:
it is recorded on a seen configuration and then, in another process with the same Triton
cache, on an unseen one (gelu_f16's second, N = 7), and only the second recording's image must
differ. On a GPU the same cases run
through the gates (`ctest -L exploits`). Needs Triton (skipped without it)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
EXPLOITS = os.path.join(ROOT, "tests", "exploits", "triton2triton")
BUILDER = os.path.join(ROOT, "harness", "python", "arena_triton_build.py")
RECORDER = os.path.join(HERE, "triton_cpu_recorder.py")
failures = []


def check(cond, what):
    print(("ok      " if cond else "FAILED: ") + what, flush=True)
    if not cond:
        failures.append(what)


def record_and_build(tmp, name, module, task, cache, config=()):
    out = os.path.join(tmp, name)
    env = dict(os.environ, TRITON_CACHE_DIR=cache)
    r = subprocess.run([sys.executable, RECORDER, "--task", task, "--module", module, "--out", out, *config],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        check(False, f"{name}: recorded on the CPU: {(r.stdout + r.stderr).strip()[-800:]}")
        return {}
    env = dict(os.environ, TRITON_CACHE_DIR=os.path.join(tmp, name + "-trusted-cache"))
    r = subprocess.run([sys.executable, BUILDER, "--source", module, "--builds", os.path.join(out, "builds.json"),
                        "--out", os.path.join(out, "trusted"), "--task", task], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        check(False, f"{name}: the builder ran: {(r.stdout + r.stderr).strip()[-800:]}")
        return {}
    with open(os.path.join(out, "trusted", "result.json")) as f:
        return {e["kernel"]: e for e in json.load(f)}


def main():
    try:
        import triton  # noqa: F401
        import torch  # noqa: F401
    except ImportError as e:
        print(f"skipped: {sys.executable} cannot import Triton and PyTorch ({e})")
        return 77
    cases = []
    for name in sorted(os.listdir(EXPLOITS)):
        spec_file = os.path.join(EXPLOITS, name, "exploit.json")
        if os.path.isfile(spec_file):
            with open(spec_file) as f:
                spec = json.load(f)
            if spec.get("class") == "device code from elsewhere":
                cases.append((name, spec))
    check(len(cases) >= 3, f"at least 3 cases hand over device code from elsewhere: {[c[0] for c in cases]}")
    tmp = tempfile.mkdtemp(prefix="arena-image-swaps-")
    try:
        for name, spec in cases:
            module = os.path.join(EXPLOITS, name, "kernel.py")
            task = os.path.join(ROOT, "tasks", "triton2triton", spec["task"], "task.json")
            cache = os.path.join(tmp, name + "-recorder-cache")
            config = ()
            if spec["gate"] == "correct_unseen":  # a later process loads what an earlier one left
                for attempt in ("first", "again"):  # a second run of the gate finds the same
                    seen = record_and_build(tmp, f"{name}-{attempt}", module, task, cache)
                    check(seen and all(e.get("same") is True for e in seen.values()),
                          f"{name}: a seen configuration's process sends the source's image ({attempt}: {seen})")
                config = ("--unseen", "1")
            results = record_and_build(tmp, name, module, task, cache, config)
            different = [k for k, e in results.items() if e.get("same") is False]
            check(different == ["gelu_kernel"],
                  f"{name}: the trusted compile finds gelu_kernel's image different from the recorder's ({results})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
