#!/usr/bin/env python3
"""Runs a tool of libarena_tools.so inside this interpreter, so that kernels and oracles named
"py:<kind>:<mode>:<where>" can be Python: PyTorch reference models ("py:torch:<mode>:<task
folder>") and Triton kernels ("py:triton:kernel:<module file>").

    arena_host.py <libarena_tools.so> <arena-correct|arena-perf|arena-profile> [tool options...]
        a judge whose oracle is Python (torch2hip's float64 model); its kernels still run in
        worker processes of their own, never here
    arena_host.py <libarena_worker.so> worker [--needs torch,triton]
        a worker process (started by a judge, socket on fd 3) that records or runs a Python
        kernel on the judge's buffers

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


# What a Python kernel may define, each handed to C as a function pointer: the object's
# method, the C function type it is wrapped in, and the loader's result field that takes it.
_CALLBACKS = (
    ("launch", arena_abi.LAUNCH_FN, "launch"),
    ("workspace_size", arena_abi.WORKSPACE_FN, "workspace_size"),
    ("reference", arena_abi.REFERENCE_FN, "reference"),
    ("image_of", arena_abi.IMAGE_FN, "image"),
    ("build_of", arena_abi.IMAGE_FN, "build"),
)


def _load(spec, role, task_file, out, err, err_len):
    try:
        kind, mode, where = spec.decode().split(":", 2)
        obj = _provider(kind)(mode, where, role.decode(), task_file.decode())
        o = out.contents
        for method, fn_type, slot in _CALLBACKS:
            if hasattr(obj, method):
                f = fn_type(getattr(obj, method))
                _alive.append(f)
                setattr(o, slot, ctypes.cast(f, ctypes.c_void_p).value)
        o.writes_outputs = 1 if getattr(obj, "writes_outputs", True) else 0
        _alive.append(obj)
        return 0
    except Exception as e:  # the runner reports it with the spec's name
        msg = arena_abi.describe_error(e).encode()[: err_len - 1]
        ctypes.memmove(err, msg + b"\0", len(msg) + 1)
        if os.environ.get("ARENA_PY_TRACEBACK"):
            traceback.print_exc()
        return 1


def _cannot_import(names):
    """Why the first of `names` that this interpreter cannot import is missing, or None."""
    for name in names:
        try:
            __import__(name)
        except ImportError as e:
            return f"this gate needs {name}, and {sys.executable} cannot import it ({e})"
    return None


def _install_loader(lib):
    """Lets the library load "py:..." kernels and oracles through _load."""
    loader = arena_abi.LOADER_FN(_load)
    _alive.append(loader)
    lib.arena_set_python_loader(loader)


def worker(lib_path, needs):
    """A worker process: the modules its kernels need are imported first (one CUDA runtime
    serves them and the worker; without one the gate is skipped, saying why), and the
    interpreter's module folders stay readable once the worker is confined."""
    why = _cannot_import(needs)
    if why:
        print(why, flush=True)
        return SKIP
    lib = ctypes.CDLL(lib_path)
    _install_loader(lib)
    import site
    paths = set(p for p in sys.path if p and os.path.isdir(p))
    paths.update([sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable))])
    paths.update(site.getsitepackages() if hasattr(site, "getsitepackages") else [])
    for p in sorted(paths):
        lib.arena_worker_allow_read(os.path.realpath(p).encode())
    rc = lib.arena_worker_main(3)
    sys.stdout.flush()
    sys.stderr.flush()
    return rc


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    lib_path, tool = argv[1], argv[2]
    if tool == "worker":
        needs = argv[argv.index("--needs") + 1].split(",") if "--needs" in argv[3:] else ["torch"]
        return worker(lib_path, [n for n in needs if n])
    # PyTorch loads before the runners so that one CUDA runtime serves both; without GPU
    # device nodes the runner skips before any Python kernel is loaded, and the import is spared.
    has_gpu = any(os.path.exists(p) for p in ("/dev/nvidiactl", "/dev/kfd"))
    if has_gpu and any(a.startswith(("py:torch:", "py:triton:")) for a in argv[3:]):
        needs = ["torch"] + (["triton"] if any(a.startswith("py:triton:") for a in argv[3:]) else [])
        why = _cannot_import(needs)
        if why:
            print(f"SKIPPED: {why}", flush=True)
            return SKIP
    try:
        lib = ctypes.CDLL(lib_path)
    except OSError as e:
        print(f"arena_host: cannot load {lib_path}: {e}", file=sys.stderr)
        return 2
    _install_loader(lib)
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
