#!/usr/bin/env python3
"""Production baselines launch what their package launches, checked without a GPU.

A production task's baseline.py repeats its package wrapper's launch minus the wrapper's
allocations (docs/DESIGN.md, "Production baselines"). Here both run on the CPU, each in a
process of its own, Triton's JIT, autotuner and compiler building for sm_90 through the
stand-in driver of triton_cpu_recorder.py, which launches nothing but is told of every
launch. For each launch of a package kernel the baseline's and the wrapper's must agree on the
kernel, grid, num_warps, num_stages, constexprs, signature (argument dtypes included) and
scalar arguments. The wrapper's own torch work (allocations, casts, sums) is not compared: the
baseline does it with Triton kernels of its own, under the gates' run-time guard
(OnlyTritonKernels). First, broken baselines must be caught: a different num_warps and a bf16
output where the package writes fp32 as different launches, a torch fill inside launch by the
guard.

    test_package_launches.py                  every case below
    test_package_launches.py <task> <seen>    one comparison (exit 1: different)

Needs Triton, PyTorch and the pinned packages (suites/triton2triton/requirements.txt);
skipped (77) without them."""
import concurrent.futures
import contextlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
TASKS = os.path.join(ROOT, "tasks", "triton2triton")

# One seen configuration per task (index into configs.seen): the one with the largest speedup,
# or the one whose launch differs in kind (one K block for the recurrent kernels).
CASES = [("conch_dequantize_nf4_bf16", 0), ("conch_scaled_gemm_int8", 2), ("conch_w4a16_gemm", 1),
         ("gems_log_softmax_f32", 3), ("fla_fused_recurrent_simple_gla_bf16", 1),
         ("fla_fused_recurrent_gla_bf16", 1), ("fla_fused_recurrent_retention_bf16", 0)]


def wrapper_call(task, t, p):
    """The package callable of task.json, called as the baseline's docstring says it mirrors."""
    import torch
    if task == "conch_dequantize_nf4_bf16":
        from conch.ops.quantization.bitsandbytes.functional import dequantize_4bit
        out = torch.empty(p["M"] * p["N"], dtype=torch.bfloat16)
        return lambda: dequantize_4bit(t["Q"], absmax=t["absmax"], out=out, blocksize=64, quant_type="nf4")
    if task == "conch_scaled_gemm_int8":
        from conch.ops.quantization.gemm import scaled_gemm
        return lambda: scaled_gemm(t["A"], t["W"].t(), t["sa"][:, None], t["sw"][:, None], torch.bfloat16)
    if task == "conch_w4a16_gemm":
        from conch.ops.quantization.gemm import mixed_precision_gemm
        return lambda: mixed_precision_gemm(t["x"], t["Wq"], t["scales"], None, 4, 8, 128)
    if task == "gems_log_softmax_f32":
        import flag_gems.ops.log_softmax  # noqa: F401 (flag_gems.ops re-exports the function under this name)
        gems = sys.modules["flag_gems.ops.log_softmax"]
        gems.torch_device_fn.device = lambda d: contextlib.nullcontext()  # CPU tensors name no GPU
        return lambda: gems.log_softmax(t["x"], -1)
    if task == "fla_fused_recurrent_simple_gla_bf16":
        from fla.ops.simple_gla.fused_recurrent import fused_recurrent_simple_gla
        return lambda: fused_recurrent_simple_gla(t["q"], t["k"], t["v"], t["g"])
    if task == "fla_fused_recurrent_gla_bf16":
        from fla.ops.gla.fused_recurrent import fused_recurrent_gla
        return lambda: fused_recurrent_gla(t["q"], t["k"], t["v"], gk=t["g"])
    if task == "fla_fused_recurrent_retention_bf16":
        from fla.ops.retention.fused_recurrent import fused_recurrent_retention
        return lambda: fused_recurrent_retention(t["q"], t["k"], t["v"])
    raise SystemExit(f"no wrapper call known for {task}")


def collect(task, seen, baseline):
    """The package-kernel launches of one side, in this process: the baseline module at
    `baseline`, or the package wrapper when it is "package". Each side runs in a process of
    its own, as a gate runs it: flag-gems' libentry caches a compiled kernel under a key
    without num_warps, and the autotuners cache their choice, so a second side in the same
    process could reuse the first side's kernel."""
    import torch
    # fla and flag-gems ask about the GPU when imported and launching: one H200 (sm_90), and
    # flag-gems is told its vendor instead of probing for one with nvidia-smi.
    torch.cuda.get_device_name = lambda *a, **k: "NVIDIA H200"
    torch.cuda.get_device_capability = lambda *a, **k: (9, 0)
    torch.cuda.current_device = lambda: 0
    torch.cuda.device_count = lambda: 1
    os.environ["GEMS_VENDOR"] = "nvidia"
    sys.path[:0] = [HERE, os.path.join(ROOT, "harness", "python")]
    import arena_abi
    import arena_task
    import arena_triton
    import triton_cpu_recorder

    launches = []

    def launcher(src, metadata):
        def launch(gx, gy, gz, stream, function, packed, launch_meta, enter, leave, *args):
            launches.append((int(function), (gx, gy, gz), args))
        return launch

    driver = triton_cpu_recorder.CpuDriver(90)
    driver.launcher_cls = launcher
    triton_cpu_recorder.driver.set_active(driver)
    arena_triton._keep_images()

    tdir = os.path.join(TASKS, task)
    info = arena_task.TaskInfo(os.path.join(tdir, "task.json"))
    package = info.spec["package"]["callable"].split(".")[0]
    p = dict(info.spec["configs"]["seen"][seen])
    t = {}
    for x in info.tensors:
        dtype = getattr(torch, arena_abi.DTYPES[x["dtype"]][0])
        shape = info.shape(x["name"], p)
        t[x["name"]] = torch.ones(shape, dtype=dtype) if dtype.is_floating_point else torch.zeros(shape, dtype=dtype)
    if baseline == "package":
        call = wrapper_call(task, t, p)
    else:
        module = arena_triton._load_module(os.path.abspath(baseline), "candidate")
        kwargs = dict(t, **p)
        if callable(getattr(module, "workspace_bytes", None)):
            kwargs["workspace"] = torch.zeros(int(module.workspace_bytes(**p)), dtype=torch.uint8)
        guard = (os.path.abspath(baseline), arena_triton.package_dirs(info))

        def call():  # under the gates' run-time guard: no torch compute or allocation of its own
            with arena_triton.OnlyTritonKernels(*guard):
                module.launch(**kwargs)

    def package_launches(run):
        launches.clear()
        run()
        out = []
        for function, grid, args in launches:
            build = json.loads(arena_triton._builds[function])
            if not build.get("module", "").startswith(package + "."):
                continue
            out.append({"kernel": build["kernel"], "grid": list(grid),
                        "num_warps": build["options"]["num_warps"], "num_stages": build["options"]["num_stages"],
                        "constexprs": build["constexprs"], "signature": build["signature"],
                        "scalars": [repr(a) for a in args if not isinstance(a, torch.Tensor)]})
        return out

    call()  # the first call autotunes (the stand-in driver finds all configs equally fast)
    return package_launches(call)


def compare(task, seen, baseline):
    """The baseline's package-kernel launches against the wrapper's, each side in a process of
    its own; returns ("same", "different" or "failed", lines saying what each side launched
    and what differs, or why a side failed)."""
    sides = []
    for who in (baseline, "package"):
        r = subprocess.run([sys.executable, __file__, task, str(seen), who], capture_output=True, text=True,
                           timeout=900)
        found = [ln[len("LAUNCHES "):] for ln in r.stdout.splitlines() if ln.startswith("LAUNCHES ")]
        if r.returncode != 0 or not found:
            tail = "\n".join((r.stdout + r.stderr).strip().splitlines()[-6:])
            return "failed", [f"  {'package' if who == 'package' else 'baseline'} side failed "
                              f"(exit {r.returncode}):", tail]
        sides.append(json.loads(found[0]))
    base, pkg = sides
    lines = []
    for who, found in (("baseline", base), ("package", pkg)):
        for d in found:
            lines.append(f"  {who}: {d['kernel']} grid={d['grid']} num_warps={d['num_warps']} "
                         f"num_stages={d['num_stages']}")
    for i, (a, b) in enumerate(zip(base, pkg)):
        lines += [f"  launch {i} {key} differs: baseline {a[key]}, package {b[key]}" for key in a if a[key] != b[key]]
    if len(base) != len(pkg):
        lines.append(f"  {len(base)} package launches by the baseline, {len(pkg)} by the package")
    if not base:
        return "failed", lines + ["  no package kernel launched"]
    return ("same" if base == pkg else "different"), lines


failures = []


def check(cond, what):
    print(("ok      " if cond else "FAILED: ") + what, flush=True)
    if not cond:
        failures.append(what)


def broken(task, old, new, tmp):
    with open(os.path.join(TASKS, task, "baseline.py")) as f:
        text = f.read()
    if old not in text:
        return None
    path = os.path.join(tmp, f"{task}_broken.py")
    with open(path, "w") as f:
        f.write(text.replace(old, new))
    return path


def main():
    if len(sys.argv) == 4:  # one side, in a process of its own
        print("LAUNCHES " + json.dumps(collect(sys.argv[1], int(sys.argv[2]), sys.argv[3])))
        return 0
    if len(sys.argv) == 3:
        status, lines = compare(sys.argv[1], int(sys.argv[2]), os.path.join(TASKS, sys.argv[1], "baseline.py"))
        print(status + "\n" + "\n".join(lines))
        return 0 if status == "same" else 1
    missing = [m for m in ("torch", "triton", "conch", "flag_gems", "fla") if importlib.util.find_spec(m) is None]
    if missing:
        print(f"skipped: this Python lacks what the production baselines import: {', '.join(missing)}")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        for task, old, new, what, expect in [
                ("gems_log_softmax_f32", "num_warps=8", "num_warps=4", "num_warps 4 instead of the op's 8",
                 "different"),
                ("fla_fused_recurrent_simple_gla_bf16", "out = workspace.view(torch.float32)[:NK * n]",
                 "out = o", "bf16 output where the wrapper allocates fp32", "different"),
                ("gems_log_softmax_f32", "    log_softmax_kernel[grid]", "    y.zero_()\n    log_softmax_kernel[grid]",
                 "a torch fill inside launch", "failed")]:
            path = broken(task, old, new, tmp)
            check(path is not None, f"{task}: baseline.py still holds `{old}` to break")
            if path:
                status, lines = compare(task, dict(CASES)[task], path)
                text = "\n".join(lines)
                check(status == expect and (expect != "failed" or "RuleViolation" in text),
                      f"a broken {task} baseline ({what}) is found {expect}: {status}\n{text}")
        # Each comparison runs its two sides in processes of their own: as many at once as there are cores.
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
            results = list(pool.map(lambda c: compare(c[0], c[1], os.path.join(TASKS, c[0], "baseline.py")), CASES))
        for (task, seen), (status, lines) in zip(CASES, results):
            check(status == "same", f"{task} seen[{seen}]: baseline launches the package kernels as the wrapper "
                                    f"does: {status}\n" + "\n".join(lines))
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
