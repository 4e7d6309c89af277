#!/usr/bin/env python3
"""The rules a Triton candidate must keep, checked without a GPU: the compile gate's static
check (harness/python/arena_check_triton.py) refuses forbidden imports, calls and module state
and copies a clean module; the run-time guard (arena_triton.OnlyTritonKernels) lets views
through and stops any PyTorch operator that computes, copies or allocates. The guard's part
needs PyTorch (skipped without it)."""
import atexit
import os
import subprocess
import sys
import shutil
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PYDIR = os.path.join(HERE, "..", "..", "harness", "python")
CHECK = os.path.join(PYDIR, "arena_check_triton.py")
failures = []


def check(cond, what):
    print(("ok      " if cond else "FAILED: ") + what)
    if not cond:
        failures.append(what)


GOOD = '''import torch
import triton
import triton.language as tl

@triton.jit
def _double(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2, mask=mask)

def launch(x, y, N):
    _double[(triton.cdiv(N, 1024),)](x, y, N, BLOCK=1024)
'''

BAD = {
    "ctypes": ("import ctypes\ndef launch(x, y, N):\n    pass\n", "imports ctypes"),
    "subprocess": ("import subprocess as sp\ndef launch(x, y, N):\n    sp.run(['true'])\n", "imports subprocess"),
    "stream": ("import torch\ndef launch(x, y, N):\n    s = torch.cuda.Stream()\n", "uses torch.cuda.Stream"),
    "sync": ("from torch import cuda\ndef launch(x, y, N):\n    cuda.synchronize()\n", "uses torch.cuda.synchronize"),
    "native": ("from torch.utils.cpp_extension import load_inline\ndef launch(x, y, N):\n    pass\n",
               "imports torch.utils.cpp_extension.load_inline"),
    "state": ("_last = None\ndef launch(x, y, N):\n    global _last\n    _last = y\n", "assigns module state"),
    "no_launch": ("def run(x, y, N):\n    pass\n", "defines no top-level launch()"),
    "syntax": ("def launch(x, y, N)\n    pass\n", "does not parse"),
}


def run_check(source_text, tmp, name):
    src = os.path.join(tmp, name + ".py")
    out = os.path.join(tmp, "out", name + ".py")
    with open(src, "w") as f:
        f.write(source_text)
    r = subprocess.run([sys.executable, CHECK, src, out, "--result", out + ".json"], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr, os.path.exists(out)


def main():
    tmp = tempfile.mkdtemp(prefix="arena_triton_rules_")
    atexit.register(shutil.rmtree, tmp, True)
    rc, text, copied = run_check(GOOD, tmp, "good")
    check(rc == 0 and copied, f"a clean module passes and is copied (rc {rc}): {text.strip()}")
    for name, (src, want) in BAD.items():
        rc, text, copied = run_check(src, tmp, name)
        check(rc == 1 and want in text and not copied and name + ".py" in text,
              f"{name}: refused naming the file and '{want}' (rc {rc}): {text.strip().splitlines()[0]}")

    sys.path.insert(0, PYDIR)
    try:
        import torch
        import arena_triton
    except ImportError as e:
        print(f"(the run-time guard is not checked here: {e})")
        torch = None
    if torch is not None:
        x = torch.arange(12.0)
        with arena_triton.OnlyTritonKernels("kernel.py"):
            v = x.view(3, 4)[1:, :2].t()
        check(tuple(v.shape) == (2, 2), "views and slices pass the guard")
        for what, op in [("a copy", lambda: x.clone()), ("arithmetic", lambda: x * 2),
                         ("a reduction", lambda: x.sum()), ("an allocation", lambda: torch.empty(4)),
                         ("a matmul", lambda: x.view(3, 4) @ x.view(4, 3)), ("an in-place fill", lambda: x.zero_())]:
            try:
                with arena_triton.OnlyTritonKernels("kernel.py"):
                    op()
                check(False, f"{what} is stopped by the guard")
            except arena_triton.RuleViolation as e:
                check("kernel.py" in str(e) and "aten." in str(e), f"{what} is stopped by the guard: {e}")
        check(float(x.sum()) == 66.0, "the guarded tensor is left unchanged")
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
