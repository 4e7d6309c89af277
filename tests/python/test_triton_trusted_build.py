#!/usr/bin/env python3
"""The trusted compile of Triton kernels (harness/python/arena_triton_build.py), without a
GPU: a module's launch is recorded on the CPU (tests/python/triton_cpu_recorder.py: Triton's
own JIT, autotuner and compiler for sm_90, loads and launches stubbed), and the builder,
which runs none of the module's code, must build byte-identical images from the source alone;
an image the module's own code changed must come out different, and options that put device
code into an image from elsewhere must not be taken. Needs Triton (skipped without it)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
BUILDER = os.path.join(ROOT, "harness", "python", "arena_triton_build.py")
RECORDER = os.path.join(HERE, "triton_cpu_recorder.py")
CHECK = os.path.join(ROOT, "harness", "python", "arena_check_triton.py")
failures = []


def check(cond, what):
    print(("ok      " if cond else "FAILED: ") + what, flush=True)
    if not cond:
        failures.append(what)


TASK = {
    "schema": 1, "name": "scale_f32", "suite": "triton2triton",
    "params": [{"name": "N", "type": "int", "min": 1}, {"name": "alpha", "type": "float", "default": 0.5}],
    "tensors": [{"name": "x", "dtype": "f32", "shape": ["N"], "role": "input"},
                {"name": "y", "dtype": "f32", "shape": ["N"], "role": "output"}],
    "configs": {"seen": [{"N": 5000}]},
}

# Helpers, a module constant, a dtype and a float constexpr, a kernel passed as a constexpr,
# autotuned and heuristic kernels, @triton.jit with arguments.
GOOD = '''import torch
import triton
import triton.language as tl

SCALE = tl.constexpr(2.0)
OUT_DTYPE = tl.float32


@triton.jit
def _square(v):
    return v * v


@triton.jit(noinline=False)
def _twice(v):
    return v * SCALE


@triton.autotune(configs=[triton.Config({"BLOCK": 256}, num_warps=4), triton.Config({"BLOCK": 1024}, num_warps=8)],
                 key=["n"])
@triton.jit
def _scale(x_ptr, y_ptr, n, alpha, BLOCK: tl.constexpr, F: tl.constexpr, DT: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, (F(v) + _twice(v) * alpha).to(DT), mask=m)


@triton.heuristics({"EVEN": lambda args: args["n"] % 128 == 0})
@triton.jit(do_not_specialize=["n"])
def _copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(y_ptr + offs, tl.load(x_ptr + offs))
    else:
        tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def launch(x, y, N, alpha):
    _scale[lambda meta: (triton.cdiv(N, meta["BLOCK"]),)](x, y, N, alpha, F=_square, DT=OUT_DTYPE)
    _copy[(triton.cdiv(N, 128),)](y, y, N, BLOCK=128, num_stages=2)
'''

# The module's own code changes the kernel after its definition: the checker has nothing to
# object to (a method of the module's own object), yet the image no longer comes from the source.
REWRITTEN = '''import triton
import triton.language as tl


@triton.jit
def _copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


_copy._unsafe_update_src("""def _copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.zeros([BLOCK], tl.float32), mask=offs < n)
""")


def launch(x, y, N, alpha):
    _copy[(triton.cdiv(N, 128),)](x, y, N, BLOCK=128)
'''

# A decorator and a default value that run the module's code when a kernel is defined: the
# builder must not run either.
DECORATED = '''import triton
import triton.language as tl

MARKER = {marker!r}


def _mark(fn):
    with open(MARKER, "w") as f:
        f.write("module code ran")
    return fn


def _default():
    with open(MARKER, "w") as f:
        f.write("module code ran")
    return 0


@triton.jit
def _unused(x_ptr, n=_default()):  # a default value is evaluated when the def runs
    pass


@_mark
@triton.jit
def _copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def launch(x, y, N, alpha):
    _copy[(triton.cdiv(N, 128),)](x, y, N, BLOCK=128)
'''


def record(tmp, name, source, task=None, module=None):
    folder = os.path.join(tmp, name)
    os.makedirs(folder, exist_ok=True)
    if module is None:
        module = os.path.join(folder, "kernel.py")
        with open(module, "w") as f:
            f.write(source)
    if task is None:
        task = os.path.join(folder, "task.json")
        with open(task, "w") as f:
            json.dump(TASK, f)
    env = dict(os.environ, TRITON_CACHE_DIR=os.path.join(tmp, "recorder-cache"))
    r = subprocess.run([sys.executable, RECORDER, "--task", task, "--module", module, "--out", folder],
                       capture_output=True, text=True, env=env)
    check(r.returncode == 0, f"{name}: recorded on the CPU ({(r.stdout + r.stderr).strip()[-800:]})")
    if r.returncode != 0:
        raise SystemExit(f"FAILED: cannot go on without {name}'s recording")
    return folder, module, task


def build(tmp, folder, module, task, edit=None):
    builds_file = os.path.join(folder, "builds.json")
    if edit:
        with open(builds_file) as f:
            builds = json.load(f)
        edit(builds)
        builds_file = os.path.join(folder, "builds-edited.json")
        with open(builds_file, "w") as f:
            json.dump(builds, f)
    out = os.path.join(folder, "trusted" + ("-edited" if edit else ""))
    # A cache of its own: what the recorder's Triton left in its cache plays no part.
    env = dict(os.environ, TRITON_CACHE_DIR=os.path.join(tmp, "builder-cache"))
    r = subprocess.run([sys.executable, BUILDER, "--source", module, "--builds", builds_file, "--out", out,
                        "--task", task], capture_output=True, text=True, env=env)
    check(r.returncode == 0, f"builder ran ({(r.stdout + r.stderr).strip()[-800:]})")
    with open(os.path.join(out, "result.json")) as f:
        return {e["kernel"]: e for e in json.load(f)}


def main():
    try:
        import triton  # noqa: F401
        import torch  # noqa: F401
    except ImportError as e:
        print(f"skipped: {sys.executable} cannot import Triton and PyTorch ({e})")
        return 77
    tmp = tempfile.mkdtemp(prefix="arena-trusted-build-")
    try:
        folder, module, task = record(tmp, "good", GOOD)
        results = build(tmp, folder, module, task)
        check(sorted(results) == ["_copy", "_scale"], f"every kernel the launch ran was described: {sorted(results)}")
        for name, e in sorted(results.items()):
            check(e.get("same") is True, f"good: {name} built from the source alone is the image Triton built ({e})")

        # ir_override (an autotune config may set it) would compile a file instead of the source.
        def override(builds):
            for b in builds:
                b["build"]["options"]["ir_override"] = os.path.join(tmp, "elsewhere.ptx")
                b["build"]["options"]["extern_libs"] = {"libdevice": os.path.join(tmp, "evil.bc")}
        edited = build(tmp, folder, module, task, edit=override)
        check(all(e.get("same") is True for e in edited.values()),
              f"good: ir_override and extern_libs from the recorder are not taken ({edited})")

        def elsewhere(builds):
            for b in builds:
                b["build"]["file"] = "/usr/lib/python3/dist-packages/evil.py"
                b["build"]["module"] = "evil"
        foreign = build(tmp, folder, module, task, edit=elsewhere)
        check(all("neither the checked module nor one of the task's package modules" in e.get("error", "")
                  for e in foreign.values()), f"good: a kernel of another module is not compiled ({foreign})")

        folder, module, task = record(tmp, "rewritten", REWRITTEN)
        r = subprocess.run([sys.executable, CHECK, module, os.path.join(folder, "checked.py")],
                           capture_output=True, text=True)
        check(r.returncode == 0, f"rewritten: the static checker lets the rewrite through ({r.stdout.strip()[-300:]})")
        results = build(tmp, folder, module, task)
        check(results.get("_copy", {}).get("same") is False,
              f"rewritten: the image of the rewritten kernel is not the source's ({results})")

        marker = os.path.join(tmp, "marker")
        folder, module, task = record(tmp, "decorated", DECORATED.format(marker=marker))
        check(os.path.exists(marker), "decorated: the recorder ran the module's decorator")
        os.remove(marker)
        results = build(tmp, folder, module, task)
        check(not os.path.exists(marker), "decorated: the builder ran none of the module's code")
        check(results.get("_copy", {}).get("same") is True, f"decorated: the kernel still builds the same ({results})")

        # A production baseline's kernels come from the installed package's source.
        liger = os.path.join(ROOT, "tasks", "triton2triton", "liger_rms_norm_bf16")
        try:
            import liger_kernel  # noqa: F401
            have_liger = True
        except ImportError:
            have_liger = False
            print("note: liger_kernel is not installed: the package kernel case is left out")
        if have_liger:
            folder, module, task = record(tmp, "package", None, task=os.path.join(liger, "task.json"),
                                          module=os.path.join(liger, "baseline.py"))
            results = build(tmp, folder, module, task)
            check(results and all(e.get("same") is True for e in results.values()),
                  f"package: liger's kernel built from its installed source is the image Triton built ({results})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
