"""Triton kernels (a task's baseline.py and solution.py, an agent's kernel.py) as
Python-provided kernels for the runners: the spec "py:triton:kernel:<module file>".

The module defines launch(<tensors>, <params>) (keyword arguments named as in task.json) and
optionally workspace_bytes(<params>). launch gets tensors over the harness's own buffers, runs
on the harness's stream, and may do nothing but launch Triton kernels: every PyTorch operator
it reaches (a matmul, a sum, an allocation, a copy) fails the launch, named. Triton's own code
is the exception: its autotuner allocates, clears the cache and copies arguments while it
benchmarks configurations (during the runners' warm-up launches)."""
import ctypes
import importlib.util
import json
import os
import re
import sys

import torch
import triton
from torch.utils._python_dispatch import TorchDispatchMode

import arena_abi
import arena_device_tensors
import arena_package
import arena_task
import arena_triton_build

# Operators that only make views or read metadata: no kernel, no allocation.
VIEW_OPS = {
    "view", "_unsafe_view", "reshape", "_reshape_alias", "as_strided", "expand", "permute", "t", "transpose",
    "select", "slice", "unsqueeze", "squeeze", "detach", "alias", "unbind", "split", "split_with_sizes", "chunk",
    "narrow", "flatten", "unflatten", "view_as", "lift_fresh", "sym_size", "sym_stride", "sym_numel",
    "sym_storage_offset", "is_contiguous", "stride", "size", "numel", "dim",
}


TORCH_DIR = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep
TRITON_DIR = os.path.dirname(os.path.abspath(triton.__file__)) + os.sep


class RuleViolation(Exception):
    pass


def _called_by_trusted(trusted_dirs):
    """Whether the code that reached the operator (the first frame outside PyTorch and this
    file) is Triton's, or a production baseline's package's (its autotuner benchmarks like
    Triton's). A hook of the candidate's that such code calls is the candidate's frame."""
    f = sys._getframe(1)
    while f is not None and (f.f_code.co_filename.startswith(TORCH_DIR) or f.f_code.co_filename == __file__):
        f = f.f_back
    return f is not None and f.f_code.co_filename.startswith(trusted_dirs)


def package_dirs(task):
    """The installed folders of the task's package's top-level modules (task.json "package"):
    its code is trusted like Triton's. A recorded launch still holds only Triton kernels, and
    a candidate's only those its compile gate listed."""
    out = []
    for m in task.spec.get("package", {}).get("modules", []):
        init = arena_package.module_file(m.split(".")[0])
        out.append(os.path.dirname(init) + os.sep)
    return tuple(sorted(set(out)))


class OnlyTritonKernels(TorchDispatchMode):
    """Fails on any PyTorch operator that computes, copies or allocates."""

    def __init__(self, module_file, trusted_dirs=()):
        super().__init__()
        self.module_file = module_file
        self.trusted_dirs = (TRITON_DIR,) + tuple(trusted_dirs)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        name = func.overloadpacket.__name__
        if name not in VIEW_OPS and not _called_by_trusted(self.trusted_dirs):
            raise RuleViolation(f"{self.module_file}: launch called the PyTorch operator aten.{name}: "
                                f"only Triton kernels may compute, copy or allocate")
        return func(*args, **(kwargs or {}))


def _load_module(path, role):
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{path}: not found")
    name = f"arena_triton_{role}_" + re.sub(r"\W", "_", os.path.abspath(path))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # Triton's JIT looks kernels' modules up by name
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        del sys.modules[name]
        raise ImportError(f"{path} does not import: {type(e).__name__}: {e}") from e
    if not callable(getattr(module, "launch", None)):
        raise AttributeError(f"{path} defines no launch()")
    return module


class TritonKernel:
    def __init__(self, module_file, task_file, role):
        if not task_file:
            raise ValueError("a Triton kernel needs the task's task.json")
        self.file = os.path.abspath(module_file)
        self.task = arena_task.TaskInfo(task_file)
        self.trusted_dirs = package_dirs(self.task)
        self.module = _load_module(self.file, role)
        self._streams = arena_device_tensors.Streams()
        self._bound = {}  # (config, pointers) -> keyword tensors, for a few buffer sets
        if callable(getattr(self.module, "workspace_bytes", None)):
            self.workspace_size = self._workspace_size

    def _params(self, a):
        return self.task.values(*arena_abi.params_of(a))

    def _workspace_size(self, args_p):
        try:
            return int(self.module.workspace_bytes(**self._params(args_p.contents)))
        except Exception as e:
            print(f"py:triton: {self.file}: workspace_bytes failed: {type(e).__name__}: {e}", file=sys.stderr,
                  flush=True)
            return 0

    def _tensors(self, a, values):
        ptrs = tuple(a.tensors[i] for i in range(a.num_tensors))
        key = (tuple(sorted(values.items())), ptrs, a.workspace, a.workspace_bytes)
        hit = self._bound.get(key)
        if hit is None:
            hit = {t["name"]: arena_device_tensors.device_tensor(p, t["dtype"], self.task.shape(t["name"], values))
                   for t, p in zip(self.task.tensors, ptrs)}
            if hasattr(self, "workspace_size"):
                hit["workspace"] = arena_device_tensors.device_tensor(a.workspace, "u8", [a.workspace_bytes])
            if len(self._bound) >= 8:
                self._bound.pop(next(iter(self._bound)))
            self._bound[key] = hit
        return hit

    def image_of(self, function, data_p, size_p):
        """The device code of a kernel function Triton loaded (0), or 1 when it is not Triton's."""
        return self._hand_over(_images.get(int(function or 0)), data_p, size_p)

    def build_of(self, function, data_p, size_p):
        """How Triton compiled that kernel (arena_triton_build.describe, as JSON), or 1: the
        judge compiles it again from the checked source and replays only that image."""
        build = _builds.get(int(function or 0))
        return self._hand_over(None if build is None else build.encode(), data_p, size_p)

    def _hand_over(self, data, data_p, size_p):
        if data is None:
            return 1
        self._last_image = ctypes.create_string_buffer(data, len(data))
        data_p[0] = ctypes.cast(self._last_image, ctypes.c_void_p).value
        size_p[0] = len(data)
        return 0

    def launch(self, args_p):
        try:
            a = args_p.contents
            values = self._params(a)
            kwargs = dict(self._tensors(a, values))
            kwargs.update(values)
            with torch.cuda.stream(self._streams.get(a.stream)), OnlyTritonKernels(self.file, self.trusted_dirs):
                self.module.launch(**kwargs)
            return 0
        except Exception as e:
            print(f"py:triton: {arena_abi.describe_error(e)}", file=sys.stderr, flush=True)
            if os.environ.get("ARENA_PY_TRACEBACK"):
                import traceback
                traceback.print_exc()
            return 1


# Device code of every kernel Triton loads in this process, and how Triton built it, by function
# handle: a recorder sends both for the kernels a launch ran; the judge builds each again from
# the checked source (arena_triton_build.py) and replays only that build's image.
_images = {}
_builds = {}


def _keep_images():
    """Wraps Triton's loading of a compiled kernel (once) so the image behind each function
    handle, and its build, are known."""
    from triton.compiler.compiler import CompiledKernel
    arena_triton_build.pin_compile_settings()  # what the judge's trusted compile uses too
    if getattr(CompiledKernel, "_arena_keeps_images", False):
        return
    init_handles = CompiledKernel._init_handles

    def _init_handles(self):
        known = self.module is not None
        init_handles(self)
        if known or self.function is None:
            return
        _images[int(self.function)] = bytes(self.kernel)
        try:
            _builds[int(self.function)] = json.dumps(arena_triton_build.describe(self))
        except Exception as e:  # the judge then refuses the kernel, saying why
            _builds[int(self.function)] = json.dumps({"kernel": self.name, "error": f"{type(e).__name__}: {e}"})

    CompiledKernel._init_handles = _init_handles
    CompiledKernel._arena_keeps_images = True


def make(mode, module_file, role, task_file=""):
    if mode != "kernel":
        raise ValueError(f"unknown mode '{mode}' (kernel)")
    if not torch.cuda.is_available():
        raise RuntimeError("PyTorch cannot use a GPU here (torch.cuda.is_available() is False)")
    arena_device_tensors.use_harness_device()
    _keep_images()
    return TritonKernel(module_file, task_file, role)
