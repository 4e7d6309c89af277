#!/usr/bin/env python3
"""The PyTorch reference side of torch2hip (harness/python/arena_torch.py) on CPU: the oracle
binds the harness's tensors by state_dict key and computes in float64, and bad references
(one that does not import, a Model whose outputs do not match the spec, state left unbound)
are refused with a message naming the file and what is wrong, and an oracle out of device memory
returns its own status. Exits 77 without PyTorch."""
import ctypes
import io
import json
import atexit
import os
import sys
import shutil
import tempfile
import contextlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "harness", "python"))
sys.dont_write_bytecode = True
try:
    import torch  # noqa: F401
    import numpy as np
except ImportError as e:
    print(f"SKIPPED: {sys.executable} cannot import PyTorch and numpy ({e})")
    sys.exit(77)
import arena_abi  # noqa: E402
import arena_torch  # noqa: E402

failures = []


def check(cond, what):
    print(("ok      " if cond else "FAILED: ") + what)
    if not cond:
        failures.append(what)


LINEAR = '''
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, k, n, slope):
        super().__init__()
        self.lin = nn.Linear(k, n)
        self.slope = slope
    def forward(self, x):
        return torch.nn.functional.leaky_relu(self.lin(x), self.slope)

m, k, n, slope = 4, 3, 5, 0.1
def get_inputs():
    return [torch.randn(m, k)]
def get_init_inputs():
    return [k, n, slope]
'''


def spec(outputs=None, state=None):
    return {
        "schema": 1, "name": "lin", "suite": "torch2hip", "category": "matmul", "description": "d",
        "params": [{"name": "m", "type": "int"}, {"name": "k", "type": "int"}, {"name": "n", "type": "int"},
                   {"name": "slope", "type": "float", "default": 0.1}],
        "tensors": [
            {"name": "x", "dtype": "f32", "shape": ["m", "k"], "role": "input"},
            {"name": "w", "dtype": "f32", "shape": ["n", "k"], "role": "input"},
            {"name": "b", "dtype": "f32", "shape": ["n"], "role": "input"},
            {"name": "y", "dtype": "f32", "shape": outputs or ["m", "n"], "role": "output"}],
        "torch": {"init": ["k", "n", "slope"], "inputs": ["x"],
                  "state": state if state is not None else {"w": "lin.weight", "b": "lin.bias"}, "outputs": ["y"]},
        "configs": {"seen": [{"m": 4, "k": 3, "n": 5}], "unseen": [{"m": 1, "k": 1, "n": 1}]},
        "tolerance": {"atol": 1e-6, "rtol": 1e-6}, "cost": {"bytes": "4", "flops": "0"},
    }


def task_dir(root, name, reference, task):
    d = os.path.join(root, name)
    os.makedirs(d)
    with open(os.path.join(d, "reference.py"), "w") as f:
        f.write(reference)
    with open(os.path.join(d, "task.json"), "w") as f:
        json.dump(task, f)
    return d


def run_oracle(d, arrays, ints, floats):
    """Calls the oracle through its C entry point, as the runners do; returns (rc, stderr)."""
    oracle = arena_torch.make("oracle", d, "reference")
    fn = arena_abi.REFERENCE_FN(oracle.reference)
    ptrs = (ctypes.POINTER(ctypes.c_double) * len(arrays))(
        *[a.ctypes.data_as(ctypes.POINTER(ctypes.c_double)) for a in arrays])
    numel = (ctypes.c_int64 * len(arrays))(*[a.size for a in arrays])
    args = arena_abi.ArenaRefArgs(ptrs, numel, len(arrays), (ctypes.c_int64 * len(ints))(*ints), len(ints),
                                  (ctypes.c_double * len(floats))(*floats), len(floats))
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        rc = fn(ctypes.pointer(args))
    return rc, err.getvalue()


def main():
    root = tempfile.mkdtemp(prefix="arena_torch_test_")
    atexit.register(shutil.rmtree, root, True)
    rng = np.random.default_rng(1)
    m, k, n, slope = 4, 3, 5, 0.1
    x, w, b = rng.normal(size=(m, k)), rng.normal(size=(n, k)), rng.normal(size=n)
    y = np.full(m * n, np.nan)

    # The harness's weights, not the model's own initialization, must produce the outputs.
    good = d = task_dir(root, "good", LINEAR, spec())
    rc, err = run_oracle(d, [x.ravel().copy(), w.ravel().copy(), b.ravel().copy(), y], [m, k, n], [slope])
    z = x @ w.T + b
    want = np.where(z > 0, z, slope * z).ravel()
    check(rc == 0, f"the oracle runs (rc {rc}; {err.strip()})")
    check(np.allclose(y, want, rtol=1e-12, atol=1e-12),
          "the oracle uses the bound weights (state_dict keys) in float64")

    # A state binding to a key the model lacks names both files' parts.
    try:
        arena_torch.TorchTask(task_dir(root, "badkey", LINEAR, spec(state={"w": "lin.wieght", "b": "lin.bias"})))\
            .model({"m": m, "k": k, "n": n, "slope": slope})
        check(False, "a state key the model lacks is refused")
    except arena_torch.ReferenceError as e:
        check("torch.state.w" in str(e) and "lin.wieght" in str(e), f"a state key the model lacks is refused: {e}")

    # Model state that the spec leaves unbound.
    try:
        t = spec(state={"w": "lin.weight"})
        t["tensors"] = [x_ for x_ in t["tensors"] if x_["name"] != "b"]
        arena_torch.TorchTask(task_dir(root, "unbound", LINEAR, t)).model({"m": m, "k": k, "n": n, "slope": slope})
        check(False, "unbound model state is refused")
    except arena_torch.ReferenceError as e:
        check("reference.py" in str(e) and "lin.bias" in str(e) and "not bound" in str(e),
              f"unbound model state is refused naming reference.py: {e}")

    # A reference that does not import.
    try:
        arena_torch.make("oracle", task_dir(root, "broken", "import torch\ndef oops(:\n", spec()), "reference")
        check(False, "a reference that does not import is refused")
    except arena_torch.ReferenceError as e:
        check("reference.py does not import" in str(e) and "broken" in str(e),
              f"a reference that does not import is refused naming the file: {e}")

    # A Model whose output does not match the spec's shape: the oracle fails, saying so.
    d = task_dir(root, "shape", LINEAR, spec(outputs=["m", "n + 1"]))
    rc, err = run_oracle(d, [x.ravel().copy(), w.ravel().copy(), b.ravel().copy(), np.full(m * (n + 1), np.nan)],
                         [m, k, n], [slope])
    rc_shape = rc
    check(rc != 0 and "reference.py" in err and "output 'y' has shape [4, 5]" in err,
          f"an output of the wrong shape fails the oracle naming the file: {err.strip()}")

    # Running out of device memory in the oracle is the harness's, not a wrong kernel: its own
    # exit status (harness/src/device_memory_error.h), which no other failure gives.
    d = task_dir(root, "oom", LINEAR.replace(
        "return torch.nn.functional.leaky_relu(self.lin(x), self.slope)",
        "raise torch.cuda.OutOfMemoryError('CUDA out of memory. Tried to allocate 2.00 GiB')"), spec())
    rc, err = run_oracle(d, [x.ravel().copy(), w.ravel().copy(), b.ravel().copy(), y.copy()], [m, k, n], [slope])
    check(rc == arena_torch.ORACLE_OUT_OF_DEVICE_MEMORY == 3 and "out of memory" in err,
          f"an oracle out of device memory returns 3 (rc {rc}; {err.strip()})")
    check(rc_shape != arena_torch.ORACLE_OUT_OF_DEVICE_MEMORY,
          f"an oracle that fails otherwise does not return 3 (rc {rc_shape})")

    # PyTorch's CPU threads follow the gate's share of the host (ARENA_HOST_THREADS).
    before = torch.get_num_threads()
    os.environ["ARENA_HOST_THREADS"] = "1"
    try:
        arena_torch.make("oracle", good, "reference")
        check(torch.get_num_threads() == 1, f"ARENA_HOST_THREADS=1 leaves PyTorch {torch.get_num_threads()} thread(s)")
        os.environ["ARENA_HOST_THREADS"] = "two"
        try:
            arena_torch.make("oracle", good, "reference")
            check(False, "ARENA_HOST_THREADS=two is refused")
        except ValueError as e:
            check("ARENA_HOST_THREADS is 'two'" in str(e), f"ARENA_HOST_THREADS=two is refused: {e}")
    finally:
        del os.environ["ARENA_HOST_THREADS"]
        torch.set_num_threads(before)

    # An unknown mode is refused.
    try:
        arena_torch.make("eagre", os.path.join(root, "good"), "baseline")
        check(False, "an unknown mode is refused")
    except ValueError as e:
        check("eagre" in str(e), f"an unknown mode is refused: {e}")

    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
