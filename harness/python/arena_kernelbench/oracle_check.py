"""The harness's own float64 oracle (arena_torch) on a written task folder, as configure and the
correctness gate will run it."""
import contextlib
import ctypes
import io
import math
import os
import sys
import warnings

from .common import where

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # harness/python


def harness_check(task_dir, spec, configs):
    """Runs the harness's own oracle (arena_torch) on a few configurations, as configure and the
    correctness gate will. Returns (error or None, notes)."""
    sys.path.insert(0, HERE)
    import numpy as np
    import arena_abi
    import arena_task
    import arena_torch
    rng = np.random.default_rng(0)
    notes = []
    try:
        task = arena_torch.TorchTask(task_dir)
    except arena_torch.ReferenceError as e:
        return str(e), notes
    oracle = arena_torch.Oracle(task)
    ints = [p["name"] for p in spec["params"] if p["type"] == "int"]
    floats = [p for p in spec["params"] if p["type"] == "float"]
    for cfg in configs:
        values = {k: cfg[k] for k in ints}
        arrays = []
        for t in spec["tensors"]:
            n = math.prod(arena_task.eval_shape(e, values) for e in t["shape"])
            d = t.get("dist")
            if d is None:
                arr = np.zeros(n)
            elif d["kind"] == "normal":
                arr = rng.normal(d["mean"], d["std"], n)
            elif d["kind"] == "uniform":
                arr = rng.uniform(d["low"], d["high"], n)
            else:
                lo, hi = (arena_task.eval_shape(d[k], values) for k in ("low", "high"))
                arr = rng.integers(lo, hi + 1, n).astype(np.float64)
            arrays.append(np.ascontiguousarray(arr, dtype=np.float64))
        dp = ctypes.POINTER(ctypes.c_double)
        fvals = [cfg.get(p["name"], p["default"]) for p in floats]
        args = arena_abi.ArenaRefArgs(
            (dp * len(arrays))(*[x.ctypes.data_as(dp) for x in arrays]),
            (ctypes.c_int64 * len(arrays))(*[x.size for x in arrays]), len(arrays),
            (ctypes.c_int64 * max(1, len(ints)))(*[values[k] for k in ints]), len(ints),
            (ctypes.c_double * max(1, len(fvals)))(*fvals), len(fvals))
        err = io.StringIO()
        with contextlib.redirect_stderr(err), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rc = oracle.reference(ctypes.pointer(args))
        if rc != 0:
            msg = err.getvalue().strip().splitlines()
            return f"the harness's oracle fails on ({where(values)}): " + (msg[-1] if msg else "no message"), notes
        for t, arr in zip(spec["tensors"], arrays):
            if t["role"] == "output" and not np.isfinite(arr).all():
                notes.append(f"with the declared distributions, output '{t['name']}' has non-finite values on "
                             f"({where(values)}): fix the input distributions")
    return None, notes
