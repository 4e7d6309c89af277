#!/usr/bin/env python3
"""Runs arena-correct, arena-perf or arena-profile (from libarena_tools.so) inside this
interpreter, so that kernels and oracles named "py:<kind>:<mode>:<where>" can be Python:
PyTorch reference models ("py:torch:<mode>:<task folder>") and Triton kernels
("py:triton:kernel:<module file>"). They share the runner's process, device context and stream, so
the runner's inputs, poison, red zones, comparisons, timing and statistics apply unchanged.

    arena_host.py <libarena_tools.so> <arena-correct|arena-perf|arena-profile> [tool options...]

Exit status is the tool's (77: skipped, e.g. no GPU or no PyTorch)."""
import ctypes
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import arena_abi  # noqa: E402

SKIP = 77
_alive = []  # ctypes closures handed to C: they must outlive every call


def _provider(kind):
    if kind == "torch":
        import arena_torch
        return arena_torch.make
    if kind == "triton":
        import arena_triton
        return arena_triton.make
    raise ValueError(f"unknown Python kernel kind '{kind}' (torch, triton)")


def _load(spec, role, task_file, out, err, err_len):
    try:
        kind, mode, where = spec.decode().split(":", 2)
        obj = _provider(kind)(mode, where, role.decode(), task_file.decode())
        o = out.contents
        if hasattr(obj, "launch"):
            f = arena_abi.LAUNCH_FN(obj.launch)
            _alive.append(f)
            o.launch = ctypes.cast(f, ctypes.c_void_p).value
        if hasattr(obj, "workspace_size"):
            f = arena_abi.WORKSPACE_FN(obj.workspace_size)
            _alive.append(f)
            o.workspace_size = ctypes.cast(f, ctypes.c_void_p).value
        if hasattr(obj, "reference"):
            f = arena_abi.REFERENCE_FN(obj.reference)
            _alive.append(f)
            o.reference = ctypes.cast(f, ctypes.c_void_p).value
        o.writes_outputs = 1 if getattr(obj, "writes_outputs", True) else 0
        _alive.append(obj)
        return 0
    except Exception as e:  # the runner reports it with the spec's name
        msg = arena_abi.describe_error(e).encode()[: err_len - 1]
        ctypes.memmove(err, msg + b"\0", len(msg) + 1)
        if os.environ.get("ARENA_PY_TRACEBACK"):
            traceback.print_exc()
        return 1


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    lib_path, tool = argv[1], argv[2]
    # PyTorch loads before the runners so that one CUDA runtime serves both; without GPU
    # device nodes the runner skips before any Python kernel is loaded, and the import is spared.
    has_gpu = any(os.path.exists(p) for p in ("/dev/nvidiactl", "/dev/kfd"))
    if has_gpu and any(a.startswith(("py:torch:", "py:triton:")) for a in argv[3:]):
        needs = ["torch"] + (["triton"] if any(a.startswith("py:triton:") for a in argv[3:]) else [])
        for name in needs:
            try:
                __import__(name)
            except ImportError as e:
                print(f"SKIPPED: this gate needs {name}, and {sys.executable} cannot import it ({e})", flush=True)
                return SKIP
    try:
        lib = ctypes.CDLL(lib_path)
    except OSError as e:
        print(f"arena_host: cannot load {lib_path}: {e}", file=sys.stderr)
        return 2
    loader = arena_abi.LOADER_FN(_load)
    _alive.append(loader)
    lib.arena_set_python_loader(loader)
    args = [tool.encode()] + [a.encode() for a in argv[3:]]
    c_argv = (ctypes.c_char_p * (len(args) + 1))(*args, None)
    lib.arena_tool_main.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
    rc = lib.arena_tool_main(tool.encode(), len(args), c_argv)
    sys.stdout.flush()
    sys.stderr.flush()
    ctypes.CDLL(None).fflush(None)
    return rc


if __name__ == "__main__":
    # Skip the interpreter's teardown: CUDA and PyTorch exit handlers after the runner has
    # written its results add nothing but ways to crash.
    os._exit(main(sys.argv))
