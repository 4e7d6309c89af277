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
    # Attribute access the name checks cannot see.
    "format_read": ("import triton\ndef launch(x, y, N):\n    s = '{0.__globals__[os]}'.format(triton.cdiv)\n",
                    "a format string reads an attribute or item ({0.__globals__[os]})"),
    "format_item": ("def launch(x, y, N):\n    s = 'n={0[k]}'.format({'k': N})\n",
                    "a format string reads an attribute or item ({0[k]})"),
    "getattr_value": ("import functools\nimport torch\ndef launch(x, y, N):\n"
                      "    op = functools.reduce(getattr, ['nn', 'functional', 'gelu'], torch)\n",
                      "uses getattr as a value"),
    "getattr_map": ("import torch\ndef launch(x, y, N):\n    ops = list(map(getattr, [torch], ['sum']))\n",
                    "uses getattr as a value"),
    "attrgetter": ("import operator\nimport torch\ndef launch(x, y, N):\n"
                   "    op = operator.attrgetter('nn.functional.gelu')(torch)\n", "imports operator"),
    "attrgetter_through_torch": ("import torch\ndef launch(x, y, N):\n"
                                 "    op = torch.functional.operator.attrgetter('sum')(torch)\n",
                                 "reaches the module operator as an attribute of torch.functional"),
    "module_attr": ("import torch\ndef launch(x, y, N):\n    torch.os.system('true')\n",
                    "reaches the module os as an attribute of torch"),
    "module_attr_deep": ("import triton.runtime.build as b\nsp = b.subprocess\ndef launch(x, y, N):\n    pass\n",
                         "reaches the module subprocess as an attribute of b"),
    "nested_kernel": ("import triton\ndef make():\n    @triton.jit\n    def k(x):\n        pass\n    return k\n"
                      "def launch(x, y, N):\n    pass\n",
                      "defines the @triton.jit function k inside another statement"),
    "no_launch": ("def run(x, y, N):\n    pass\n", "defines no top-level launch()"),
    "syntax": ("def launch(x, y, N)\n    pass\n", "does not parse"),
}

# Format strings that only place values (and a docstring that mentions a field) are fine.
FORMATS_OK = '''"""Formats like "{0.shape}" appear in this docstring only."""
def launch(x, y, N):
    a = "{} {name} {0:.3f} {x!r:>8}".format(1.0, name="n", x=N)
    b = f"{N:>6}"
'''


def run_check(source_text, tmp, name):
    src = os.path.join(tmp, name + ".py")
    out = os.path.join(tmp, "out", name + ".py")
    with open(src, "w") as f:
        f.write(source_text)
    r = subprocess.run([sys.executable, CHECK, src, out, "--result", out + ".json"], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr, os.path.exists(out)


# A package of production kernels, as a task's "package" names it: a module of two kernels
# (one under an autotune decorator) and a helper; written into a folder put on PYTHONPATH.
PACKAGE = {"fakepkg/__init__.py": "", "fakepkg/ops.py": '''import triton
import triton.language as tl

@triton.autotune(configs=[], key=["n"])
@triton.jit
def _pkg_scale(x_ptr, n, BLOCK: tl.constexpr):
    pass

@triton.jit
def pkg_copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pass

def settings(n):
    return 1024, 4
''', "fakepkg/other.py": "def helper():\n    return 0\n"}
USES_PACKAGE = '''import triton
from fakepkg.ops import _pkg_scale, pkg_copy, settings

def launch(x, y, N):
    block, warps = settings(N)
    pkg_copy[(triton.cdiv(N, block),)](x, y, N, BLOCK=block, num_warps=warps)
'''


def check_package_imports(tmp):
    """--allow-import lets a module import the task's package modules, and their kernels join
    the ones its launches may run; other modules of the package stay refused."""
    root = os.path.join(tmp, "site")
    for rel, text in PACKAGE.items():
        os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
        with open(os.path.join(root, rel), "w") as f:
            f.write(text)
    src = os.path.join(tmp, "uses_package.py")
    with open(src, "w") as f:
        f.write(USES_PACKAGE)
    out = os.path.join(tmp, "out", "uses_package.py")
    env = dict(os.environ, PYTHONPATH=root)
    r = subprocess.run([sys.executable, CHECK, src, out], capture_output=True, text=True, env=env)
    check(r.returncode == 1 and "imports fakepkg.ops" in r.stdout, "a package module is refused without --allow-import")
    r = subprocess.run([sys.executable, CHECK, src, out, "--allow-import", "fakepkg.ops"], capture_output=True,
                       text=True, env=env)
    kernels = open(out + ".kernels").read().split() if os.path.exists(out + ".kernels") else []
    check(r.returncode == 0 and kernels == ["_pkg_scale", "pkg_copy"],
          f"--allow-import passes it and lists the package's kernels, the autotuned one too: {kernels} {r.stdout.strip()}")
    r = subprocess.run([sys.executable, CHECK, src, out, "--allow-import", "fakepkg.other"], capture_output=True,
                       text=True, env=env)
    check(r.returncode == 1 and "this task's package modules: fakepkg.other" in r.stdout,
          "a package module the task does not list stays refused")
    r = subprocess.run([sys.executable, CHECK, src, out, "--allow-import", "fakepkg.ops", "--allow-import",
                        "fakepkg.missing"], capture_output=True, text=True, env=env)
    check(r.returncode == 1 and "is not installed" in r.stdout, "a listed module that is not installed is named")

    # The agent's workspace copy: the listed modules as installed, with the license, at the pin.
    lic = os.path.join(root, "fakepkg-1.0.dist-info", "licenses")
    os.makedirs(lic)
    with open(os.path.join(lic, "LICENSE"), "w") as f:
        f.write("MIT License\n")
    copier = os.path.join(PYDIR, "arena_package.py")
    dest = os.path.join(tmp, "workspace", "package")
    r = subprocess.run([sys.executable, copier, "copy", "--name", "fakepkg", "--version", "1.0", "--dest", dest,
                        "fakepkg.ops"], capture_output=True, text=True, env=env)
    got = sorted(os.path.relpath(os.path.join(d, f), dest) for d, _, fs in os.walk(dest) for f in fs)
    check(r.returncode == 0 and got == ["fakepkg-1.0/LICENSE", "fakepkg-1.0/fakepkg/ops.py"],
          f"the workspace gets the listed module and the license: {got} {r.stderr.strip()}")
    r = subprocess.run([sys.executable, copier, "copy", "--name", "fakepkg", "--version", "2.0", "--dest", dest,
                        "fakepkg.ops"], capture_output=True, text=True, env=env)
    check(r.returncode == 1 and "installed at version 1.0, but the task pins 2.0" in r.stderr,
          f"another installed version is refused, naming the pin: {r.stderr.strip()}")


def main():
    tmp = tempfile.mkdtemp(prefix="arena_triton_rules_")
    atexit.register(shutil.rmtree, tmp, True)
    check_package_imports(tmp)
    rc, text, copied = run_check(GOOD, tmp, "good")
    check(rc == 0 and copied, f"a clean module passes and is copied (rc {rc}): {text.strip()}")
    rc, text, copied = run_check(FORMATS_OK, tmp, "formats_ok")
    check(rc == 0 and copied, f"plain format strings and a docstring that shows a field pass (rc {rc}): {text.strip()}")
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
