#!/usr/bin/env python3
"""The fla linear-attention solutions on odd shapes, against a float64 recurrence.

Each tasks/triton2triton/fla_* solution runs on shapes the seen configurations never take:
odd K (below and above 64, so a 128-wide K tile with masked columns), odd and tiny V, T one
short of, equal to and one past the 64-token chunk, and a T with a short last chunk. Inputs
are drawn from each task.json's declared distributions (on one shape with the judge's outliers,
0.1 % of the values of each non-strict distribution scaled by 50), the launch gets a workspace when the module asks for one, and every output
must be within the task's tolerance of the task's recurrence evaluated in float64 (the same
recurrences as the tasks' reference oracles).

On a machine with a CUDA GPU the kernels run there, compiled as the gates compile them (the
check that matters for code generation); with --interpret, or without a GPU, they run in
Triton's interpreter on the CPU, which checks the algorithm (masking, chunk tails, state carry)
but not the compiled code (CTest runs it so). Skipped (77) without PyTorch and Triton.

    test_fla_odd_shapes.py [--interpret]                  every task and shape
    test_fla_odd_shapes.py [--interpret] <task> [B,T,H,K,V ...]"""
import importlib.util
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TASKS = os.path.normpath(os.path.join(HERE, "..", "..", "tasks", "triton2triton"))

# (B, T, H, K, V, outliers)
SHAPES = [(6, 135, 3, 113, 5, False), (6, 135, 3, 113, 5, True), (2, 65, 2, 127, 3, False),
          (1, 64, 3, 65, 1, False), (2, 63, 2, 33, 7, False), (1, 1, 2, 113, 129, False),
          (1, 135, 1, 127, 129, False), (1, 70, 2, 1, 1, False)]
TASK_NAMES = ["fla_fused_recurrent_retention_bf16", "fla_fused_recurrent_simple_gla_bf16",
              "fla_fused_recurrent_gla_bf16", "fla_fused_recurrent_delta_rule_bf16"]


def patch_interpreter():
    """Two defects of Triton 3.6's interpreter that the GPU does not have: tl.dot on bf16
    multiplies the stored bit patterns (uint16), and a runtime scalar used as a loop bound fails
    under NumPy 2 (int() of a one-element array)."""
    import numpy as np
    import triton.language as tl
    import triton.runtime.interpreter as interp

    dot = interp.InterpreterBuilder.create_dot

    def dot_bf16_as_f32(self, a, b, d, input_precision, max_num_imprecise_acc):
        def f32(x):
            if x.dtype.scalar != tl.bfloat16:
                return x
            return interp.TensorHandle(interp._convert_float(x.data, tl.bfloat16, tl.float32, None)
                                       .view(np.float32), tl.float32)
        return dot(self, f32(a), f32(b), d, input_precision, max_num_imprecise_acc)

    interp.InterpreterBuilder.create_dot = dot_bf16_as_f32
    patch_tensor = interp._patch_lang_tensor

    def patch_tensor_index(tensor, scope):
        patch_tensor(tensor, scope)
        scope.set_attr(tensor, "__index__", lambda self: int(np.asarray(self.handle.data).reshape(-1)[0]))

    interp._patch_lang_tensor = patch_tensor_index


def draw(spec, params, outliers, gen, device):
    import torch
    dims = {p: params[p] for p in "BTHKV"}
    out = {}
    for t in spec["tensors"]:
        shape = [dims[s] for s in t["shape"]]
        dtype = {"bf16": torch.bfloat16, "f32": torch.float32}[t["dtype"]]
        if t["role"] == "output":
            out[t["name"]] = torch.full(shape, float("nan"), dtype=dtype, device=device)
            continue
        d = t["dist"]
        if d["kind"] == "normal":
            x = d["mean"] + d["std"] * torch.randn(shape, generator=gen, dtype=torch.float64)
        else:
            x = d["low"] + (d["high"] - d["low"]) * torch.rand(shape, generator=gen, dtype=torch.float64)
        if outliers and not d.get("strict"):  # the judge never scales a strict distribution
            x = torch.where(torch.rand(shape, generator=gen, dtype=torch.float64) < 0.001, 50 * x, x)
        out[t["name"]] = x.to(dtype).to(device)
    return out


def reference(task, x, K):
    """o [B, T, H, V] in float64, the recurrence of the task's oracle."""
    import torch
    q, k, v = (x[n].double().cpu() for n in "qkv")
    B, T, H, _ = q.shape
    V = v.shape[-1]
    if task.endswith("delta_rule_bf16"):
        q = q / torch.sqrt((q * q).sum(-1, keepdim=True) + 1e-6)
        k = k / torch.sqrt((k * k).sum(-1, keepdim=True) + 1e-6)
    o = torch.zeros(B, T, H, V, dtype=torch.float64)
    for h in range(H):
        S = torch.zeros(B, K, V, dtype=torch.float64)
        for t in range(T):
            kt, vt = k[:, t, h], v[:, t, h]
            if task.endswith("delta_rule_bf16"):
                u = vt - torch.einsum("bk,bkv->bv", kt, S)
                S = S + x["beta"].double().cpu()[:, t, h, None, None] * kt[:, :, None] * u[:, None, :]
            else:
                if task.endswith("retention_bf16"):
                    decay = torch.full((B, K, 1), 1.0 - 2.0 ** (-5 - h), dtype=torch.float64)
                elif task.endswith("simple_gla_bf16"):
                    decay = torch.exp(x["g"].double().cpu()[:, t, h]).view(B, 1, 1).expand(B, K, 1)
                else:
                    decay = torch.exp(x["g"].double().cpu()[:, t, h]).view(B, K, 1)
                S = decay * S + kt[:, :, None] * vt[:, None, :]
            o[:, t, h] = torch.einsum("bk,bkv->bv", q[:, t, h], S)
    return o / math.sqrt(K)


def check(task, shapes, device):
    import torch
    folder = os.path.join(TASKS, task)
    spec = json.load(open(os.path.join(folder, "task.json")))
    tol = spec["tolerance"]
    load = importlib.util.spec_from_file_location(task + "_solution", os.path.join(folder, "solution.py"))
    module = importlib.util.module_from_spec(load)
    load.loader.exec_module(module)
    failed = 0
    for i, (B, T, H, K, V, outliers) in enumerate(shapes):
        params = {"B": B, "T": T, "H": H, "K": K, "V": V}
        x = draw(spec, params, outliers, torch.Generator().manual_seed(1000 + i), device)
        args = dict(x, **params)
        if hasattr(module, "workspace_bytes"):
            args["workspace"] = torch.empty(module.workspace_bytes(**params), dtype=torch.uint8, device=device)
        module.launch(**args)
        got = x["o"].double().cpu()
        want = reference(task, x, K)
        limit = tol["atol"] + tol["rtol"] * want.abs()
        bad = ~((got - want).abs() <= limit)  # NaN (unwritten) counts as bad
        worst = float(((got - want).abs() / limit).nan_to_num(float("inf")).max())
        where = f"{task} B={B} T={T} H={H} K={K} V={V}{' outliers' if outliers else ''}"
        if bad.any():
            first = int(bad.flatten().nonzero()[0])
            print(f"FAILED: {where}: {int(bad.sum())} of {got.numel()} outside tolerance, first at [{first}]: "
                  f"got {got.flatten()[first]:.6g} want {want.flatten()[first]:.6g}", flush=True)
            failed += 1
        else:
            print(f"ok {where}: worst error / limit {worst:.3f}", flush=True)
    return failed


def main(argv):
    try:
        import torch
    except ImportError as e:
        print(f"skipped: {e}")
        return 77
    interpret = "--interpret" in argv
    argv = [a for a in argv if a != "--interpret"]
    device = "cuda" if torch.cuda.is_available() and not interpret else "cpu"
    if device == "cpu":
        os.environ["TRITON_INTERPRET"] = "1"  # read when triton.language is first imported
    try:
        import triton  # noqa: F401
    except ImportError as e:
        print(f"skipped: {e}")
        return 77
    if device == "cpu":
        patch_interpreter()
    print(f"device: {device}{' (Triton interpreter)' if device == 'cpu' else ''}")
    tasks = argv[1:2] or TASK_NAMES
    shapes = [tuple(int(n) for n in s.split(",")) + (False,) for s in argv[2:]] or SHAPES
    failed = sum(check(t, shapes, device) for t in tasks)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
