"""PyTorch reference models (reference.py, KernelBench's problem format) as Python-provided
kernels and oracles, bound to the ABI by task.json's "torch" section.

Modes (the spec "py:torch:<mode>:<task folder>"):
  oracle   the model in float64 (or the tensors' own dtypes with "oracle": "native") on the
           harness's host inputs: the correctness oracle
  eager    the model in the task's dtypes on the harness's device buffers and stream; it only
           computes (its outputs are its own, as when PyTorch users call a model): the perf
           reference
  eager_out  the same, copying its outputs into the ABI's output buffers: checks that eager
           PyTorch meets the task's tolerances
  compile  torch.compile (default mode, static shapes) of the same call: a second perf reference
"""
import importlib.util
import math
import os
import re
import sys

import numpy as np

import arena_abi
import arena_task

try:
    import torch
    import arena_device_tensors
except ImportError:  # the host turns this into a skip before anything is loaded
    torch = None

MODES = ("oracle", "eager", "eager_out", "compile")


class ReferenceError(Exception):
    """A problem with reference.py or its binding, named by file."""


def _load_module(path):
    if not os.path.isfile(path):
        raise ReferenceError(f"{path}: not found")
    name = "arena_reference_" + re.sub(r"\W", "_", os.path.basename(os.path.dirname(path)))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # torch.compile looks the model's module up by name
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        del sys.modules[name]
        raise ReferenceError(f"{path} does not import: {type(e).__name__}: {e}") from e
    if not hasattr(module, "Model"):
        raise ReferenceError(f"{path} defines no class Model")
    return module


class TorchTask(arena_task.TaskInfo):
    """task.json + reference.py: builds the model for a configuration and binds tensors."""

    def __init__(self, task_dir):
        self.dir = os.path.abspath(task_dir)
        super().__init__(os.path.join(self.dir, "task.json"))
        self.ref_file = os.path.join(self.dir, "reference.py")
        if "torch" not in self.spec:
            raise ReferenceError(f"{self.task_file}: no \"torch\" section binding reference.py to the ABI")
        self.binding = self.spec["torch"]
        self.module = _load_module(self.ref_file)
        self._models = {}
        self._scalar_state = set()  # state_dict keys of 0-d entries, bound as shape [1]

    def model(self, values):
        """The model for one configuration, in eval mode; its state is checked against the binding."""
        key = tuple(sorted(values.items()))
        if key in self._models:
            return self._models[key]
        for k, v in values.items():  # module-level shape variables, as get_inputs() would see them
            if hasattr(self.module, k):
                setattr(self.module, k, v)
        env = {"__builtins__": {}, "math": math, **values}
        try:
            init = [eval(str(e), env) for e in self.binding.get("init", [])]  # noqa: S307
        except Exception as e:
            raise ReferenceError(f"{self.task_file}: torch.init: {type(e).__name__}: {e}") from e
        torch.manual_seed(0)
        try:
            m = self.module.Model(*init)
        except Exception as e:
            raise ReferenceError(f"{self.ref_file}: Model({', '.join(map(repr, init))}) failed: "
                                 f"{type(e).__name__}: {e}") from e
        m.eval()
        state = m.state_dict()
        bound = self.binding.get("state", {})
        for name, skey in bound.items():
            if skey not in state:
                raise ReferenceError(f"{self.task_file}: torch.state.{name}: the Model has no state entry '{skey}' "
                                     f"(it has {sorted(state)})")
            want = self.shape(name, values)
            if state[skey].dim() == 0 and want == [1]:
                # A 0-d parameter is bound as a tensor of shape [1] (a task tensor has at least one
                # dimension); state_of() gives the model its own shape back.
                self._scalar_state.add(skey)
            elif list(state[skey].shape) != want:
                raise ReferenceError(f"{self.ref_file}: Model state '{skey}' has shape {list(state[skey].shape)}, "
                                     f"task.json tensor '{name}' has {want} on {self.where(values)}")
        # BatchNorm's step counter is not used in eval mode and is no tensor a kernel reads.
        unbound = sorted(k for k in set(state) - set(bound.values()) if not k.endswith("num_batches_tracked"))
        if unbound:
            raise ReferenceError(f"{self.ref_file}: Model state {unbound} is not bound to ABI tensors "
                                 f"(task.json torch.state)")
        self._models[key] = m
        return m

    def state_of(self, tensors):
        """The bound tensors keyed by the model's state_dict keys (after model(): a 0-d entry
        gets a 0-d view of its [1] tensor)."""
        return {key: tensors[name].reshape(()) if key in self._scalar_state else tensors[name]
                for name, key in self.binding.get("state", {}).items()}

    def run(self, model, tensors, values):
        """forward() on the bound inputs; returns the outputs as a list checked against the spec."""
        inputs = [tensors[n] for n in self.binding["inputs"]]
        with torch.inference_mode():
            out = model(*inputs)
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        names = self.binding["outputs"]
        if len(outs) != len(names):
            raise ReferenceError(f"{self.ref_file}: forward() returned {len(outs)} value(s), task.json binds "
                                 f"{len(names)} output(s) {names}")
        for name, o in zip(names, outs):
            if not isinstance(o, torch.Tensor):
                raise ReferenceError(f"{self.ref_file}: output '{name}' is a {type(o).__name__}, not a tensor")
            want = math.prod(self.shape(name, values))
            if o.numel() != want:
                raise ReferenceError(f"{self.ref_file}: output '{name}' has shape {list(o.shape)} "
                                     f"({o.numel()} elements), task.json says {self.shape(name, values)} "
                                     f"on {self.where(values)}")
        return outs


# The oracle's exit status for running out of device memory (kOracleOutOfDeviceMemory):
# the gate reports an infrastructure error, not a wrong kernel.
ORACLE_OUT_OF_DEVICE_MEMORY = 3


def bind_state(model, state):
    """Replaces the model's parameters and buffers by the given tensors (no copies)."""
    for key, t in state.items():
        *path, leaf = key.split(".")
        mod = model.get_submodule(".".join(path)) if path else model
        if leaf in mod._parameters:
            mod._parameters[leaf] = torch.nn.Parameter(t, requires_grad=False)
        else:
            mod._buffers[leaf] = t


class Oracle:
    """The model on host double arrays: float64 (default) or the tensors' dtypes ("native")."""

    def __init__(self, task):
        self.task = task
        self.native = task.binding.get("oracle", "float64") == "native"
        self.device = "cuda" if torch.cuda.is_available() else "cpu"

    def reference(self, args_p):
        try:
            self._run(args_p.contents)
            return 0
        except torch.cuda.OutOfMemoryError as e:
            # The harness's own allocation, not the candidate's (harness/src/device_memory_error.h).
            _report("oracle", e)
            return ORACLE_OUT_OF_DEVICE_MEMORY
        except Exception as e:
            _report("oracle", e)
            return 1
        finally:
            # The judge allocates its buffer sets beside this process's PyTorch: what the caching
            # allocator kept of this run goes back to the device (the run's tensors are gone now).
            if self.device == "cuda":
                torch.cuda.empty_cache()

    def _run(self, a):
        """Runs the model on `a`'s inputs and writes its outputs into `a`'s output arrays."""
        values = self.task.values(*arena_abi.params_of(a))
        import copy
        model = copy.deepcopy(self.task.model(values)).to(self.device)
        arrays, tensors = {}, {}
        for i, spec in enumerate(self.task.tensors):
            arr = np.ctypeslib.as_array(a.tensors[i], shape=(a.numel[i],))
            arrays[spec["name"]] = arr
            if spec["role"] == "output":
                continue
            t = torch.from_numpy(arr.copy()).reshape(self.task.shape(spec["name"], values)).to(self.device)
            if self.native or not t.is_floating_point() or not spec["dtype"].startswith(("f", "bf")):
                t = t.to(getattr(torch, arena_abi.DTYPES[spec["dtype"]][0]))
            tensors[spec["name"]] = t
        if not self.native:
            model = model.double()
        bind_state(model, self.task.state_of(tensors))
        outs = self.task.run(model, tensors, values)
        for name, o in zip(self.task.binding["outputs"], outs):
            arrays[name][:] = o.detach().to("cpu", torch.float64).reshape(-1).numpy()


class DeviceModel:
    """The model on the harness's device buffers and stream (eager, eager_out or compile)."""

    def __init__(self, task, mode):
        self.task, self.mode = task, mode
        self.writes_outputs = mode == "eager_out"
        self._bound = {}     # (config, pointers) -> (model, tensors), at most a few buffer sets
        self._compiled = {}  # config -> compiled function
        self._streams = arena_device_tensors.Streams()

    def _tensor(self, ptr, name, values):
        spec = self.task.tensors[self.task.index[name]]
        return arena_device_tensors.device_tensor(ptr, spec["dtype"], self.task.shape(name, values))

    def _binding(self, a, values):
        ptrs = tuple(a.tensors[i] for i in range(a.num_tensors))
        key = (tuple(sorted(values.items())), ptrs)
        hit = self._bound.get(key)
        if hit is None:
            import copy
            tensors = {s["name"]: self._tensor(p, s["name"], values) for s, p in zip(self.task.tensors, ptrs)}
            model = copy.deepcopy(self.task.model(values)).to("cuda")
            state = self.task.state_of(tensors)
            if self.mode == "compile":
                model = self._compiled_fn(values, model, state)
            else:
                bind_state(model, state)
            if len(self._bound) >= 8:
                self._bound.pop(next(iter(self._bound)))
            hit = self._bound[key] = (model, tensors)
        return hit

    def _compiled_fn(self, values, model, state):
        """One compiled function per configuration; tensors are its inputs, so new buffers do
        not recompile it."""
        cfg = tuple(sorted(values.items()))
        fn = self._compiled.get(cfg)
        if fn is None:
            base = model
            call = torch.func.functional_call

            def forward(state_dict, *inputs):
                return call(base, state_dict, inputs)

            fn = self._compiled[cfg] = torch.compile(forward, dynamic=False)
        return lambda *inputs: fn(state, *inputs)

    def launch(self, args_p):
        try:
            a = args_p.contents
            values = self.task.values(*arena_abi.params_of(a))
            model, tensors = self._binding(a, values)
            with torch.cuda.stream(self._streams.get(a.stream)):
                outs = self.task.run(model, tensors, values)
                if self.writes_outputs:
                    for name, o in zip(self.task.binding["outputs"], outs):
                        dst = tensors[name]
                        if o.dtype != dst.dtype:
                            raise ReferenceError(f"{self.task.ref_file}: output '{name}' is {o.dtype}, task.json "
                                                 f"says {self.task.tensors[self.task.index[name]]['dtype']}")
                        dst.copy_(o.reshape(dst.shape))
            return 0
        except Exception as e:
            _report(self.mode, e)
            return 1


def _report(mode, e):
    print(f"py:torch:{mode}: {arena_abi.describe_error(e)}", file=sys.stderr, flush=True)
    if os.environ.get("ARENA_PY_TRACEBACK"):
        import traceback
        traceback.print_exc()


def _limit_host_threads():
    """PyTorch's CPU threads: the gate's share of the cores (ARENA_HOST_THREADS, docs/DESIGN.md
    "Scheduling"), not all of them, where several gates share the host."""
    n = os.environ.get("ARENA_HOST_THREADS", "")
    if not n:
        return
    if not n.isdigit() or int(n) < 1:
        raise ValueError(f"ARENA_HOST_THREADS is '{n}': must be a whole number of host threads, at least 1")
    if torch.get_num_threads() != int(n):
        torch.set_num_threads(int(n))


def make(mode, task_dir, role, task_file=""):
    if torch is None:
        raise ReferenceError("PyTorch is not installed for this Python")
    if mode not in MODES:
        raise ValueError(f"unknown mode '{mode}' ({', '.join(MODES)})")
    _limit_host_threads()
    task = TorchTask(task_dir)
    if mode == "oracle":
        return Oracle(task)
    if not torch.cuda.is_available():
        raise ReferenceError("PyTorch cannot use a GPU here (torch.cuda.is_available() is False)")
    # The reference computes at the precision the task's tolerances demand of candidates.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    arena_device_tensors.use_harness_device()
    return DeviceModel(task, mode)
