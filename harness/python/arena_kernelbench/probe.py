"""Loading a KernelBench problem file and running its model at given sizes, on the GPU when
PyTorch sees one, else on the CPU (or PyTorch's meta device where only shapes matter), with the
module-level size variables set."""
import ast
import contextlib
import importlib.util
import inspect
import math
import os
import re
import sys
import textwrap
import types
import warnings

import torch

from .common import DeviceFault, ProbeError, Refusal, first_line, short
from .probe_limits import check_inner_sizes, size_guard

_loaded = 0


def load_problem(path):
    global _loaded
    if not os.path.isfile(path):
        raise Refusal("not found (or not a file)")
    _loaded += 1
    name = f"arena_kernelbench_problem_{_loaded}_" + re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0])
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise Refusal("does not import: not a Python source file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            spec.loader.exec_module(module)
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # SystemExit too: the file must import cleanly
        del sys.modules[name]
        raise Refusal(f"does not import: {type(e).__name__}: {first_line(e)}")
    if not isinstance(getattr(module, "Model", None), type):
        raise Refusal("no class Model")
    if not issubclass(module.Model, torch.nn.Module):
        raise Refusal("class Model is not a torch.nn.Module")
    if not callable(getattr(module, "get_inputs", None)):
        raise Refusal("no get_inputs()")
    if hasattr(module, "get_init_inputs") and not callable(module.get_init_inputs):
        raise Refusal("get_init_inputs is not a function")
    return module


def global_names(fn, module):
    """Module-level names a function reads, following nested code and the module's own helpers."""
    names, seen, todo = set(), set(), [fn]
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        stack = [f.__code__]
        while stack:
            code = stack.pop()
            names.update(code.co_names)
            stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
        for n in list(names):
            obj = module.__dict__.get(n)
            if isinstance(obj, types.FunctionType) and obj.__module__ == module.__name__ and obj not in seen:
                todo.append(obj)
    return names


def returned_names(fn):
    """For `return [a, b, 0.5]` in fn: ["a", "b", ""]; None when the source cannot tell."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return None
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.FunctionDef) else []
    rets = [s for s in body if isinstance(s, ast.Return)]
    if len(rets) != 1 or not isinstance(rets[0].value, (ast.List, ast.Tuple)):
        return None
    if any(isinstance(e, ast.Starred) for e in rets[0].value.elts):
        return None
    return [e.id if isinstance(e, ast.Name) else "" for e in rets[0].value.elts]


FACTORIES = ("tensor", "as_tensor", "zeros", "ones", "empty", "full", "rand", "randn", "randint", "arange",
             "linspace", "eye", "randperm", "zeros_like", "ones_like", "empty_like", "full_like", "rand_like",
             "randn_like", "randint_like")


def _on_cuda(d):
    return d is not None and not isinstance(d, (torch.dtype, torch.Tensor)) and "cuda" in str(d)


def _to_cpu(fn):
    def call(*args, **kwargs):
        if _on_cuda(kwargs.get("device")):
            kwargs["device"] = "cpu"
        args = tuple("cpu" if _on_cuda(a) and isinstance(a, (str, torch.device)) else a for a in args)
        return fn(*args, **kwargs)
    return call


def probe_device():
    """Where forward() runs in probes: the GPU when PyTorch sees one (a 3D convolution that takes
    minutes on a CPU takes milliseconds there), else the CPU. ARENA_IMPORT_PROBE_DEVICE=cpu
    forces the CPU (an import that must not touch the GPU)."""
    if os.environ.get("ARENA_IMPORT_PROBE_DEVICE", "").strip().lower() == "cpu":
        return "cpu"
    return "cuda" if torch.cuda.is_available() else "cpu"


CPU_BECAUSE_ENV = "ARENA_IMPORT_CPU_BECAUSE"  # why an import started again with its probes on the CPU


def probe_device_name():
    dev = probe_device()
    if dev == "cuda":
        return f"the GPU ({torch.cuda.get_device_name(0)})"
    because = os.environ.get(CPU_BECAUSE_ENV, "").strip()
    return f"the CPU ({because})" if because else "the CPU"


def _host(x):
    return x.cpu() if isinstance(x, torch.Tensor) else x


@contextlib.contextmanager
def cpu_only():
    """Where probes run on the CPU, `.cuda()`, `.to("cuda")` and `device="cuda"` in a problem
    file stay on the CPU."""
    if probe_device() != "cpu":
        yield
        return
    saved = [(torch, n, getattr(torch, n)) for n in FACTORIES if hasattr(torch, n)]
    saved += [(torch.Tensor, "cuda", torch.Tensor.cuda), (torch.nn.Module, "cuda", torch.nn.Module.cuda),
              (torch.Tensor, "to", torch.Tensor.to), (torch.nn.Module, "to", torch.nn.Module.to)]
    for owner, name, fn in saved:
        setattr(owner, name, (lambda self, *a, **k: self) if name == "cuda" else _to_cpu(fn))
    try:
        yield
    finally:
        for owner, name, fn in saved:
            setattr(owner, name, fn)


# --- running the model -----------------------------------------------------------------------

class Run:
    """One run of get_init_inputs(), get_inputs(), Model(...) and forward() at given sizes."""

    def __init__(self, values):
        self.values = values
        self.init = []
        self.inputs = []       # what get_inputs() returned
        self.n_forward = 0     # how many of them the harness passes (the tensors)
        self.state = {}
        self.outputs = []
        self.int_range = {}    # input index -> [min, max] over repeated draws
        self.param_names = []  # forward()'s names for the passed inputs
        self.dropped = []      # (index, parameter name, value): trailing non-tensors equal to defaults
        self.low_precision_fallback = None  # the dtype forward() ran in float32 for (CPU lacks its kernels)


def as_list(x, what):
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (list, tuple)):
        return list(x)
    raise Refusal(f"{what} returns a {type(x).__name__}, not a list")


def forward_names(model, inputs, run):
    """Binds get_inputs()'s values to forward()'s parameters; only tensors reach the harness."""
    try:
        params = list(inspect.signature(model.forward).parameters.values())
    except (TypeError, ValueError):
        params = []
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    var = next((p for p in params if p.kind == p.VAR_POSITIONAL), None)
    n_tensors = 0
    while n_tensors < len(inputs) and isinstance(inputs[n_tensors], torch.Tensor):
        n_tensors += 1
    for i in range(n_tensors, len(inputs)):
        v = inputs[i]
        if isinstance(v, torch.Tensor):
            raise Refusal(f"get_inputs()[{i}] is a tensor after the non-tensor get_inputs()[{n_tensors}] "
                          f"({short(inputs[n_tensors])}): the harness passes only tensors to forward()")
        p = positional[i] if i < len(positional) else None
        if p is None or p.default is p.empty or type(p.default) is not type(v) or p.default != v:
            kind = "an" if type(v).__name__[0] in "aeiou" else "a"
            raise Refusal(f"get_inputs()[{i}] is {kind} {type(v).__name__} ({short(v)}), not a tensor: the harness "
                          f"passes only tensors to forward() (a non-tensor can be left out only when it is "
                          f"a trailing argument equal to forward()'s default)")
        run.dropped.append((i, p.name, v))
    names = []
    for i in range(n_tensors):
        if i < len(positional):
            names.append(positional[i].name)
        elif var is not None:
            names.append(f"{var.name}{i - len(positional)}")
        else:
            raise Refusal(f"get_inputs() returns {len(inputs)} values, forward() takes {len(positional)}")
    run.n_forward = n_tensors
    run.param_names = names


# Module-level tuples of ints that get_inputs() unpacks (input_shape = (32768,)): each element is
# a variable of its own, named <tuple>_<index>; pseudo-variable -> (tuple name, index).
TUPLE_VARS = {}
# Variables tied to another of equal file value (a model that needs them equal): tied -> driver.
ALIASES = {}


def apply_values(module, values):
    """Sets the module-level variables get_inputs() and the model read; tuple elements rebuild
    their tuples."""
    tuples = {}
    values = {**values, **{t: values[d] for t, d in ALIASES.items() if d in values}}
    for k, v in values.items():
        if k in TUPLE_VARS:
            name, i = TUPLE_VARS[k]
            tuples.setdefault(name, list(getattr(module, name)))[i] = v
        else:
            setattr(module, k, v)
    for name, elems in tuples.items():
        setattr(module, name, tuple(elems))


def run_model(module, values, sample_ints=False, meta=False):
    """meta: only the outputs' shapes are needed (sweeps and checks); forward() runs on PyTorch's
    meta device, which computes shapes without data, and on the CPU where an op lacks a meta
    kernel or the model looks at data. Inputs and state stay real CPU tensors either way."""
    if meta:
        try:
            return _run_model(module, values, False, True)
        except (ProbeError, Refusal):
            pass
    return _run_model(module, values, sample_ints, False)


def _run_model(module, values, sample_ints, meta):
    run = Run(dict(values))
    apply_values(module, values)
    try:
        with warnings.catch_warnings(), cpu_only(), size_guard():
            warnings.simplefilter("ignore")
            torch.manual_seed(0)
            init = module.get_init_inputs() if hasattr(module, "get_init_inputs") else []
            run.init = as_list(init, "get_init_inputs()")
            torch.manual_seed(0)
            # The analysis reads inputs, state and outputs on the host; forward() runs on probe_device().
            run.inputs = [_host(x) for x in as_list(module.get_inputs(), "get_inputs()")]
            torch.manual_seed(0)
            model = module.Model(*run.init)
            model.eval()
            forward_names(model, run.inputs, run)
            run.state = {k: v.detach().cpu().clone() for k, v in model.state_dict().items()
                         if not k.endswith("num_batches_tracked")}
            fwd = run.inputs[: run.n_forward]
            if meta:
                model = model.to("meta")
                fwd = [t.to("meta") for t in fwd]
            else:
                check_inner_sizes(model, fwd, run.state)
                if probe_device() != "cpu":
                    model = model.to(probe_device())
                    fwd = [t.to(probe_device()) for t in fwd]
            with torch.no_grad():
                try:
                    out = model(*fwd)
                except Exception as e:
                    # PyTorch's CPU kernels lack many f16/bf16 ops: run in float32, outputs back in the low dtype.
                    low = [t.dtype for t in list(fwd) + list(run.state.values())
                           if t.dtype in (torch.float16, torch.bfloat16)]
                    if not low or not re.search(r"Half|BFloat16", str(e)):
                        raise
                    model.float()
                    out = model(*[t.float() if t.dtype in (torch.float16, torch.bfloat16) else t for t in fwd])
                    cast = (lambda o: o.to(low[0]) if isinstance(o, torch.Tensor) and o.dtype == torch.float32 else o)
                    out = type(out)(cast(o) for o in out) if isinstance(out, (tuple, list)) else cast(out)
                    run.low_precision_fallback = str(low[0]).replace("torch.", "")
            if isinstance(out, dict):
                raise Refusal("forward() returns a dict: it must return a tensor or a tuple of tensors")
            run.outputs = [_host(o) for o in (out if isinstance(out, (tuple, list)) else [out])]
            for i, o in enumerate(run.outputs):
                if not isinstance(o, torch.Tensor):
                    what = "forward()" if not isinstance(out, (tuple, list)) else f"forward()[{i}]"
                    raise Refusal(f"{what} returns a {type(o).__name__}, not a tensor")
            ints = [i for i in range(run.n_forward) if not run.inputs[i].is_floating_point()
                    and not run.inputs[i].is_complex()]
            for i in ints:
                t = run.inputs[i]
                run.int_range[i] = [int(t.min().int()), int(t.max().int())] if t.numel() else None
            if sample_ints and ints:
                # The largest index drawn from a small tensor may miss its bound: draw more.
                drawn = min((run.inputs[i].numel() for i in ints), default=0)
                seed = 1
                while drawn * seed < 4096 and seed < 64:
                    torch.manual_seed(seed)
                    more = as_list(module.get_inputs(), "get_inputs()")
                    for i in ints:
                        t = more[i]
                        if t.numel() and run.int_range[i] is not None:
                            r = run.int_range[i]
                            r[0], r[1] = min(r[0], int(t.min().int())), max(r[1], int(t.max().int()))
                    seed += 1
    except Refusal:
        raise
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        if probe_device() == "cuda" and re.search(r"CUDA error: (device-side assert|an illegal|unspecified launch)",
                                                  str(e)):
            raise DeviceFault(f"{type(e).__name__}: {first_line(e)}") from e
        raise ProbeError(f"{type(e).__name__}: {first_line(e)}") from e
    return run


def size_variables(module):
    """The problem's size variables: module-level ints that get_inputs()/get_init_inputs() read
    (and one per element of a tuple of ints only get_inputs() reads, recorded in TUPLE_VARS), and
    the finite module-level floats get_init_inputs() reads. Returns (ints, floats, the names
    get_inputs() reads, the names get_init_inputs() reads)."""
    get_init = getattr(module, "get_init_inputs", None)
    in_inputs = global_names(module.get_inputs, module)
    in_init = global_names(get_init, module) if get_init else set()
    int_vars = {k: v for k, v in vars(module).items()
                if type(v) is int and not k.startswith("__") and k in (in_inputs | in_init)}
    # Tuples of ints that only get_inputs() reads (input_shape = (32768,)): one variable per element.
    TUPLE_VARS.clear()
    for k, v in vars(module).items():
        if isinstance(v, tuple) and v and all(type(e) is int for e in v) and not k.startswith("__") \
                and k in in_inputs and k not in in_init:
            for i, e in enumerate(v):
                pseudo = f"{k}_{i}"
                while pseudo in vars(module) or pseudo in int_vars:
                    pseudo += "_"
                TUPLE_VARS[pseudo] = (k, i)
                int_vars[pseudo] = e
    float_vars = {k: v for k, v in vars(module).items()
                  if type(v) is float and not k.startswith("__") and k in in_init and math.isfinite(v)}
    return int_vars, float_vars, in_inputs, in_init
