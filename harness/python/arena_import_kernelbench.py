"""arena-import-kernelbench: turns a KernelBench problem file into a torch2hip task folder.

    arena-import-kernelbench <problem.py> [--out DIR] [--name NAME] [--category CAT]
                             [--set NAME=VALUE]... [--keep NAME]...

A KernelBench problem holds `class Model(nn.Module)`, `get_inputs()` (the tensors forward()
takes), `get_init_inputs()` (the constructor's arguments) and module-level ints for the shapes.
The importer writes <out>/<name>/ with reference.py (the file, verbatim), task.json (with its
"torch" section) and README.md (the statement, plus what a maintainer must review). It writes
no solution.hip: such a task does not pass selftest until an expert solution is added.

How shapes are found: the module-level ints that get_inputs()/get_init_inputs() use are the
shape variables (and each element of a tuple of ints that only get_inputs() reads, such as
`input_shape = (32768,)`, as a variable `input_shape_0`). The model runs on CPU with small
distinct primes substituted for them (three sets, plus one set of even sizes as a check; larger
primes when the model fails on small ones); every tensor dimension (inputs, state_dict entries,
outputs) is read off as a constant or a product of variables from the prime factorization.
Where that fails, each variable is swept over 32 more values with the others fixed, and a
dimension may be a product of one factor per variable, each a power or an affine size
(a * v + b) / s (a convolution's or a pool's output: `height - 2`, `(height - 4) / 2`), or a
sum of variables (a concatenation: `input_size + hidden_size`). Variables no size depends on (a
reduction axis), or that the model cannot vary independently (a group count, a size fixed by
a tuple computed at import, a stride that makes a size inexpressible), are kept at their file
values as literals; variables the model needs equal (equal in the file) may be tied into one.
The sizes read off the probes must also hold on other configurations (among them the smallest
unseen ones the task will hold) and at every variable's minimum. Anything else is refused with
the file and what is wrong, on one line; nothing is written. A bool input becomes a u8 tensor
of 0 and 1.

--set NAME=VALUE gives a module-level variable another value (a Python literal of the same
kind) before the import, so the seen configuration can be smaller than the file's (the README
says so); --keep NAME keeps an int variable at its value, a literal instead of a param.

Before writing, the task is loaded by the harness itself (arena_torch) and its float64 oracle
runs on the smallest configurations.
"""
import argparse
import ast
import contextlib
import importlib.util
import inspect
import io
import itertools
import json
import math
import os
import re
import shutil
import sys
import tempfile
import textwrap
import types
import warnings

PROG = "arena-import-kernelbench"
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_OUT = os.path.join(REPO, "tasks", "torch2hip")
MAX_ELEMS = 1 << 26          # per tensor, in every configuration the importer generates
WORK_CAP = 1 << 30           # product of all int params in a generated configuration (or 4x that of seen)
PRIMES = [5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 101, 103,
          107, 109, 113, 127, 131, 137, 139, 149, 151, 157, 163, 167, 173, 179, 181, 191, 193, 197, 199]
PROBE_STARTS = (0, 4, 9)    # indices into PRIMES: probes from 5, then from 17, then from 37
MAX_FREEZE_TRIES = 32
DTYPE_SIZE = {"f32": 4, "f16": 2, "bf16": 2, "f64": 8, "i32": 4, "i64": 8, "i8": 1, "u8": 1}
TOLERANCE = {"f32": {"atol": 1e-5, "rtol": 1e-5}, "f16": {"atol": 1e-3, "rtol": 1e-2},
             "bf16": {"atol": 1e-3, "rtol": 1e-2}, "f64": {"atol": 1e-9, "rtol": 1e-9}}
# Names a tensor or param must not take: C++ keywords, and `a`, the ABI argument of arena_launch.
RESERVED = set("""a alignas alignof and asm auto bool break case catch char class const constexpr
continue decltype default delete do double else enum explicit export extern false float for friend
goto if inline int long mutable namespace new noexcept not nullptr operator or private protected
public register return short signed sizeof static struct switch template this throw true try
typedef typeid typename union unsigned using virtual void volatile while""".split())

torch = None  # imported in main(): the module stays importable without PyTorch


class Refusal(Exception):
    """What is wrong with the problem file: reported as one line, nothing is written."""


class ProbeError(Exception):
    """The model (or get_inputs()) failed on one set of probe sizes."""


class NeedSweeps(Exception):
    """A size is no product of variable powers: the analysis needs one-variable sweeps."""


# --- small helpers -------------------------------------------------------------------------

def is_prime(n):
    if n < 2:
        return False
    for p in range(2, int(math.isqrt(n)) + 1):
        if n % p == 0:
            return False
    return True


def next_prime(n):
    n = max(n, 2)
    while not is_prime(n):
        n += 1
    return n


def odd(n):
    n = max(1, int(n))
    return n if n % 2 else n + 1


def short(value, limit=60):
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def sanitize(name):
    return re.sub(r"[^a-z0-9_]", "_", name.lower())


def ident(name, taken, prefix="t"):
    """A C identifier for a tensor or param name, unique among `taken` (which it joins)."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", name) or prefix
    if name[0].isdigit():
        name = prefix + name
    while name in RESERVED or name in taken:
        name += "_"
    taken.add(name)
    return name


def compact_json(obj, indent=0, width=132):
    """JSON with 2-space indentation that keeps short arrays and objects on one line."""
    flat = json.dumps(obj, separators=(", ", ": "))
    if len(flat) + indent <= width or not isinstance(obj, (dict, list)) or not obj:
        return flat
    pad = " " * (indent + 2)
    if isinstance(obj, dict):
        items = [f"{pad}{json.dumps(k)}: {compact_json(v, indent + 2, width)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + compact_json(v, indent + 2, width) for v in obj]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


# --- sizes: products of variables and affine factors ------------------------------------------
# A size is c * f1 * f2 * ..., each factor one of
#   ("pow", v, e)             v ** e
#   ("aff", v, a, b, s)       (a * v + b) / s, integer division (a convolution's or a pool's
#                             output length: (v - 2), (v - 4) / 2, 2 * v + 1, ...)
#   ("lin", ((v, a), ...), b) a1 * v1 + a2 * v2 + ... + b (a concatenation's length)
# The expression language of task.json (and Python's // on the non-negative numerators of valid
# configurations) evaluates each of them the same way.

class Size:
    def __init__(self, c=1, factors=()):
        pows, rest = {}, []
        for f in factors:
            if f[0] == "pow":
                pows[f[1]] = pows.get(f[1], 0) + f[2]
            else:
                rest.append(f)
        self.c = c
        self.factors = tuple(sorted([("pow", v, e) for v, e in pows.items() if e], key=repr) + sorted(rest, key=repr))

    def __eq__(self, other):
        return isinstance(other, Size) and (self.c, self.factors) == (other.c, other.factors)

    def __hash__(self):
        return hash((self.c, self.factors))

    def __repr__(self):
        return f"Size({self.c}, {self.factors})"

    def is_const(self):
        return not self.factors

    def vars(self):
        out = set()
        for f in self.factors:
            out.update([f[1]] if f[0] != "lin" else [v for v, _ in f[1]])
        return out

    def value(self, values):
        return self.c * math.prod(factor_value(f, values) for f in self.factors)

    def text(self, order, alone=True):
        rank = {v: i for i, v in enumerate(order)}
        fs = sorted(self.factors, key=lambda f: (min(rank.get(v, 1 << 20) for v in factor_vars(f)), f[0] != "pow", repr(f)))
        parts = [] if self.c == 1 and fs else [str(self.c)]
        single = alone and self.c == 1 and len(fs) == 1
        for f in fs:
            if f[0] == "pow":
                parts += [f[1]] * f[2]
            else:
                parts.append(factor_text(f, bare=single))
        return " * ".join(parts)

    def entry(self, order):
        """A shape entry: an integer for a constant, else an expression string."""
        return self.c if not self.factors else self.text(order)

    def covers(self, small):
        """Whether self >= small for every configuration because it holds all of small's factors."""
        if self == small or self.c < small.c:
            return False
        mine = list(self.factors)
        for f in small.factors:
            if f[0] == "pow":
                hit = next((g for g in mine if g[0] == "pow" and g[1] == f[1] and g[2] >= f[2]), None)
            else:
                hit = f if f in mine else None
            if hit is None:
                return False
            mine.remove(hit)
        return True

    def key(self):
        """The size without its constant: sizes with equal keys add up into one term."""
        return self.factors


def factor_vars(f):
    return [v for v, _ in f[1]] if f[0] == "lin" else [f[1]]


def factor_value(f, values):
    if f[0] == "pow":
        return values[f[1]] ** f[2]
    if f[0] == "aff":
        _, v, a, b, s = f
        return (a * values[v] + b) // s
    return sum(a * values[v] for v, a in f[1]) + f[2]


def _affine_text(terms, b):
    text = ""
    for v, a in terms:
        coef = v if abs(a) == 1 else f"{abs(a)} * {v}"
        text += (coef if not text and a > 0 else f"-{coef}" if not text else f" {'+' if a > 0 else '-'} {coef}")
    if b:
        text += f" {'+' if b > 0 else '-'} {abs(b)}"
    return text


def factor_text(f, bare=False):
    if f[0] == "pow":
        return " * ".join([f[1]] * f[2])
    if f[0] == "aff":
        _, v, a, b, s = f
        inner = _affine_text([(v, a)], b)
        if s == 1:
            return inner if bare or (a == 1 and not b) else f"({inner})"
        num = inner if (a == 1 and not b) else f"({inner})"
        return f"{num} / {s}" if bare else f"({num} / {s})"
    inner = _affine_text(list(f[1]), f[2])
    return inner if bare else f"({inner})"


def size_mul(sizes):
    c, factors = 1, []
    for s in sizes:
        c *= s.c
        factors += list(s.factors)
    return Size(c, factors)


def python_expr(text):
    """A size expression as Python evaluates it (torch.init): integer division."""
    return text.replace(" / ", " // ")


def prod_value(term, values):
    return term.value(values)


def prod_text(term, order):
    return term.text(order)


def prod_entry(term, order):
    return term.entry(order)


def prod_mul(terms):
    return size_mul(terms)


def infer_product(observed, probes, n_candidates):
    """The product of variable powers that gives `observed[k]` on `probes[k]` for every k, or
    None. Candidates come from factoring the observations on the first n_candidates probes
    (distinct primes); the others only check."""
    if any(not isinstance(d, int) or d < 1 for d in observed):
        return None
    for d, values in list(zip(observed, probes))[:n_candidates]:
        c, factors = d, []
        for v, p in values.items():
            e = 0
            while p > 1 and c % p == 0:
                c //= p
                e += 1
            if e:
                factors.append(("pow", v, e))
        term = Size(c, factors)
        if all(term.value(vals) == o for o, vals in zip(observed, probes)):
            return term
    return None


def _divisors(n):
    small = [d for d in range(1, int(math.isqrt(n)) + 1) if n % d == 0]
    return sorted(set(small + [n // d for d in small]))


MAX_STRIDE = 16  # the largest divisor s of an affine factor (a pool of 16); sweeps cover 2 * s values
MAX_SLOPE = 4    # the largest multiplier a (a transposed convolution's stride)


def fit_factor(points):
    """One variable's factor from (value, observed size) pairs where only that variable changes:
    None when the size does not depend on it, else (factor, K) with size = K * factor(value).
    Powers first, then (a * v + b) / s with the smallest s and a."""
    xs = [x for x, _ in points]
    ds = [d for _, d in points]
    if all(d == ds[0] for d in ds):
        return None
    v = "_"
    for e in (1, 2, 3):
        k = ds[0] // xs[0] ** e if ds[0] % xs[0] ** e == 0 else None
        if k and all(d == k * x ** e for x, d in points):
            return ("pow", v, e), k
    g = 0
    for d in ds:
        g = math.gcd(g, d)
    for s in range(1, MAX_STRIDE + 1):
        for a in range(1, MAX_SLOPE + 1):
            if s > 1 and math.gcd(a, s) != 1:
                continue
            for k in reversed(_divisors(g)):  # the largest K: the factor's own content is 1
                lo, hi = -(1 << 60), 1 << 60
                for x, d in points:  # (a x + b) // s == d / k  <=>  s*f - a*x <= b <= s*f - a*x + s - 1
                    f = d // k
                    lo, hi = max(lo, s * f - a * x), min(hi, s * f - a * x + s - 1)
                    if lo > hi:
                        break
                if lo > hi:
                    continue
                b = min(range(lo, hi + 1), key=lambda z: (abs(z), z)) if hi - lo < 64 else lo
                if s == 1 and math.gcd(a, abs(b)) != 1:
                    continue  # K would not be the largest
                return ("aff", v, a, b, s), k
    return None


def infer_size(observed, values, base, sweeps, order):
    """The size that gives observed[k] on values[k] for every run k, or None. Runs in
    sweeps[v] change only v from the base run (index 0). A power product first, then a product
    of one factor per variable (fitted on its sweep), then a sum of variables."""
    if any(not isinstance(d, int) or d < 1 for d in observed):
        return None
    d0 = observed[0]
    factors, denom = [], 1
    for v in order:
        pts = [(values[0][v], d0)] + [(values[k][v], observed[k]) for k in sweeps.get(v, [])]
        fit = fit_factor(pts)
        if fit is None:
            continue
        f, _ = fit
        f = (f[0], v) + f[2:]
        factors.append(f)
        denom *= factor_value(f, values[0])
    if denom > 0 and d0 % denom == 0:
        size = Size(d0 // denom, factors)
        if all(size.value(vals) == o for o, vals in zip(observed, values)):
            return size
    # a1 * v1 + a2 * v2 + ... + b: constant steps along every sweep.
    terms = []
    for v in order:
        ks = sweeps.get(v, [])
        if not ks:
            continue
        dx = [values[k][v] - values[0][v] for k in ks]
        dd = [observed[k] - d0 for k in ks]
        if any(x == 0 for x in dx) or any(d * dx[0] != dd[0] * x for d, x in zip(dd, dx)) or dd[0] % dx[0]:
            return None
        if dd[0]:
            terms.append((v, dd[0] // dx[0]))
    if len(terms) < 2:
        return None
    b = d0 - sum(a * values[0][v] for v, a in terms)
    g = 0
    for x in [a for _, a in terms] + [b]:
        g = math.gcd(g, x)
    size = Size(g, [("lin", tuple((v, a // g) for v, a in terms), b // g)])
    if all(size.value(vals) == o for o, vals in zip(observed, values)):
        return size
    return None


def where(values):
    return ", ".join(f"{k}={v}" for k, v in values.items())


# --- the problem module ----------------------------------------------------------------------

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


def first_line(e):
    text = str(e).strip().splitlines()
    return text[0] if text else "(no message)"


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


PROBE_MAX_ELEMS = 1 << 27  # a tensor the probes would allocate (a size kept at a large file value)
SIZED = ("rand", "randn", "zeros", "ones", "empty", "full", "randint")


def _requested_numel(name, args, kwargs):
    """The element count a factory call asks for, or None where it cannot tell."""
    size = kwargs.get("size")
    if size is None:
        if name == "randint":  # randint(high, size) / randint(low, high, size)
            size = next((x for x in args if isinstance(x, (tuple, list, torch.Size))), None)
        elif name == "full":
            size = args[0] if args else None
        elif args and isinstance(args[0], (tuple, list, torch.Size)):
            size = args[0]
        else:
            size = [x for x in args if isinstance(x, int)]
    try:
        return math.prod(int(x) for x in size) if size is not None else None
    except (TypeError, ValueError):
        return None


def _guarded(fn, name):
    def call(*args, **kwargs):
        n = _requested_numel(name, args, kwargs)
        if n is not None and n > PROBE_MAX_ELEMS:
            raise ProbeTooLarge(f"torch.{name} of {n} elements at these sizes (over 2^27)")
        return fn(*args, **kwargs)
    return call


class ProbeTooLarge(RuntimeError):
    """A probe would allocate a huge tensor (a size kept at its file value)."""


@contextlib.contextmanager
def size_guard():
    """Probes never allocate tensors over PROBE_MAX_ELEMS elements: with sizes kept at large file
    values a model could otherwise exhaust the machine's memory."""
    saved = [(n, getattr(torch, n)) for n in SIZED if hasattr(torch, n)]
    for n, fn in saved:
        setattr(torch, n, _guarded(fn, n))
    try:
        yield
    finally:
        for n, fn in saved:
            setattr(torch, n, fn)


@contextlib.contextmanager
def cpu_only():
    """Probes run on CPU: where there is no GPU, `.cuda()`, `.to("cuda")` and `device="cuda"` in a
    problem file stay on the CPU."""
    if torch.cuda.is_available():
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
            run.inputs = as_list(module.get_inputs(), "get_inputs()")
            torch.manual_seed(0)
            model = module.Model(*run.init)
            model.eval()
            forward_names(model, run.inputs, run)
            run.state = {k: v.detach().clone() for k, v in model.state_dict().items()
                         if not k.endswith("num_batches_tracked")}
            fwd = run.inputs[: run.n_forward]
            if meta:
                model = model.to("meta")
                fwd = [t.to("meta") for t in fwd]
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
            run.outputs = list(out) if isinstance(out, (tuple, list)) else [out]
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
        raise ProbeError(f"{type(e).__name__}: {first_line(e)}") from e
    return run


# --- analysis --------------------------------------------------------------------------------

class TensorInfo:
    def __init__(self, name, role, source, dtype, shape, values_by_run):
        self.name = name          # ABI name
        self.role = role          # input / output
        self.source = source      # ("input", forward parameter) / ("state", key) / ("output", index)
        self.dtype = dtype
        self.shape = shape        # list of products
        self.runs = values_by_run # the tensor in each probe run
        self.dist = None
        self.notes = []

    def numel(self):
        return prod_mul(self.shape)


def dtype_name(t, what):
    # A bool tensor becomes u8 holding 0 and 1: arithmetic with it (x * mask) gives the same values.
    names = {torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16", torch.float64: "f64",
             torch.int32: "i32", torch.int64: "i64", torch.int8: "i8", torch.uint8: "u8", torch.bool: "u8"}
    if t.dtype not in names:
        raise Refusal(f"{what} is {str(t.dtype).replace('torch.', '')}: the harness's dtypes are "
                      f"f32 f16 bf16 f64 i32 i64 i8 u8")
    return names[t.dtype]


class Analysis:
    """The shapes, bindings and init arguments read off the probe runs."""

    def __init__(self, module, free, frozen, floats, init_ast):
        self.module = module
        self.free = free            # int variables that become params, in file order
        self.frozen = frozen        # int variables kept at their file values
        self.floats = floats        # float module variables read by get_init_inputs: name -> value
        self.n_candidates = 3
        self.frozen_why = {}
        self.init_ast = init_ast
        if len(free) + 3 > len(PRIMES):
            raise Refusal(f"{len(free)} int variables ({', '.join(free)}): the importer handles at most "
                          f"{len(PRIMES) - 3}")
        # Small distinct primes first; a model that fails on them (a kernel or a pool larger than
        # the input) gets larger ones.
        error = probes = runs = None
        for start in PROBE_STARTS:
            if start + len(free) + 2 >= len(PRIMES):
                break
            cand = [{v: PRIMES[start + i + k] for i, v in enumerate(free)} for k in range(3)]
            cand.append({v: PRIMES[start + i] + 1 for i, v in enumerate(free)})  # even sizes: a check
            try:
                runs = [self._run(vals) for vals in cand]
                probes = cand
                break
            except ProbeError as e:
                error = error or e
        if runs is None:
            raise error
        self.probes, self.runs, self.sweeps = probes, runs, {}
        try:
            self._analyze()
        except NeedSweeps:
            # Sizes that are no power products: run each variable over more values (the others at
            # the first probe) and fit one factor per variable; 8 values first, which settles
            # strides up to 4, then up to 2 * MAX_STRIDE where that is not enough.
            self._sweep(1, 8)
            try:
                self._analyze()
            except Refusal:
                self._sweep(9, 2 * MAX_STRIDE)
                self._analyze()

    def _sweep(self, first, last):
        for v in self.free:
            for dv in range(first, last + 1):
                vals = {**self.probes[0], v: self.probes[0][v] + dv}
                try:
                    run = self._run(vals, meta=True)
                except ProbeError:
                    continue  # sizes this model does not take (e.g. odd ones): fitted without them
                self.sweeps.setdefault(v, []).append(len(self.runs))
                self.runs.append(run)

    def _run(self, vals, meta=False):
        try:
            return run_model(self.module, {**vals, **self.frozen}, sample_ints=not meta, meta=meta)
        except ProbeError as e:
            raise ProbeError(f"on the probe sizes ({where(vals) or 'no variables'}): {e}") from e

    def _analyze(self):
        self.used = set()
        self.values = [{v: r.values[v] for v in self.free} for r in self.runs]
        self._structure()
        self.init = [self._init_arg(i) for i in range(len(self.runs[0].init))]
        self.float_params = [n for n in self.floats if n in self.used]

    def desc(self, k):
        return where(self.values[k] if hasattr(self, "values") else self.probes[k]) or "no variables"

    def _product(self, observed, what):
        term = infer_product(observed[:len(self.probes)], self.probes, self.n_candidates)
        if term is not None and any(term.value(vals) != o for o, vals in zip(observed, self.values)):
            term = None
        if term is None and not self.sweeps:
            raise NeedSweeps()
        if term is None:
            term = infer_size(observed, self.values, self.probes[0], self.sweeps, self.free)
        if term is None:
            seen = "; ".join(f"{o} at ({self.desc(k)})" for k, o in enumerate(observed[:3]))
            raise Refusal(f"{what} is not a constant, a product of the int variables and affine sizes of one "
                          f"variable each, or a sum of variables: {seen}")
        self.used.update(term.vars())
        return term

    def _same(self, per_run, what):
        if any(x != per_run[0] for x in per_run[1:]):
            raise Refusal(f"{what} changes with the sizes: {per_run[0]} at ({self.desc(0)}), "
                          f"{next(x for x in per_run if x != per_run[0])} elsewhere")
        return per_run[0]

    def _structure(self):
        runs = self.runs
        self._same([r.n_forward for r in runs], "the number of tensors get_inputs() returns")
        self._same([r.param_names for r in runs], "forward()'s parameter names")
        self._same([len(r.init) for r in runs], "the number of values get_init_inputs() returns")
        self._same([list(r.state) for r in runs], "the Model's state_dict keys")
        self._same([len(r.outputs) for r in runs], "the number of tensors forward() returns")
        self.dropped = runs[0].dropped
        taken = set(self.free) | set(self.floats)
        self.inputs, self.state, self.outputs = [], [], []
        for i, pname in enumerate(runs[0].param_names):
            ts = [r.inputs[i] for r in runs]
            what = f"input '{pname}' (get_inputs()[{i}])"
            self.inputs.append(self._tensor(ident(pname, taken), "input", ("input", pname, i), ts, what))
        for key in runs[0].state:
            ts = [r.state[key] for r in runs]
            what = f"state '{key}'"
            if ts[0].dim() == 0:
                raise Refusal(f"{what} is a 0-d tensor: the harness binds state with the task's shape, "
                              f"which has at least one dimension (make it shape [1])")
            self.state.append(self._tensor(ident(key.replace(".", "_"), taken), "input", ("state", key), ts, what))
        n_out = len(runs[0].outputs)
        for i in range(n_out):
            base = "out" if n_out == 1 else f"out{i}"
            ts = [r.outputs[i] for r in runs]
            what = f"output '{base}'" + (f" (forward()[{i}])" if n_out > 1 else "")
            self.outputs.append(self._tensor(ident(base, taken), "output", ("output", i), ts, what))
        for t in self.inputs + self.state:
            t.dist = self._dist(t)

    def _tensor(self, name, role, source, ts, what):
        dtypes = self._same([dtype_name(t, what) for t in ts], f"{what}'s dtype")
        rank = self._same([t.dim() for t in ts], f"{what}'s rank")
        shape = [self._product([t.shape[d] for t in ts], f"{what} dim {d}") for d in range(rank)]
        if rank == 0:
            shape = [Size(1)]  # a 0-d tensor is one element: the harness matches outputs by count
        info = TensorInfo(name, role, source, dtypes, shape, ts)
        if ts[0].dtype == torch.bool:
            info.notes.append(f"'{name}' is a bool tensor in the model: the harness passes it as u8 holding 0 and 1, "
                              f"which the model's arithmetic treats alike (boolean indexing would not)")
        if role == "input" and not ts[0].is_contiguous():
            info.notes.append(f"get_inputs() gives a non-contiguous '{name}'; the harness passes contiguous tensors")
        return info

    def _dist(self, t):
        if t.dtype in ("f32", "f16", "bf16", "f64"):
            vals = [x.double() for x in t.runs if x.numel()]
            if t.source[0] == "input":
                if vals and all(float(x.min()) >= 0 for x in vals):
                    t.notes.append(f"get_inputs() draws only non-negative values for '{t.name}'; "
                                   f"normal(0, 1) gives negatives too")
                return {"kind": "normal", "mean": 0, "std": 1}
            lo, hi = min(float(x.min()) for x in vals), max(float(x.max()) for x in vals)
            if lo == hi:  # constant init (BatchNorm/LayerNorm weights, biases, running statistics)
                c = lo
                if c > 0:
                    return {"kind": "uniform", "low": 0.5 * c, "high": 1.5 * c, "strict": True}
                if c < 0:
                    return {"kind": "uniform", "low": 1.5 * c, "high": 0.5 * c, "strict": True}
                return {"kind": "normal", "mean": 0, "std": 0.25}
            a = float(t.runs[0].double().abs().max())
            b = float(f"{a:.2g}") if a > 0 else 1.0
            b = b if b >= a else float(f"{a * 1.05:.2g}")
            if lo < 0 < hi:
                # Uniform inits (Linear, Conv: +-1/sqrt(fan_in)) have max/std near sqrt(3);
                # normal ones (Embedding) reach 3-4 std.
                allv = torch.cat([x.reshape(-1) for x in vals])
                std = float(allv.std()) if allv.numel() > 1 else 0.0
                if std > 0 and a / std > 2.2 and allv.numel() >= 64:
                    return {"kind": "normal", "mean": 0, "std": float(f"{std:.2g}")}
                return {"kind": "uniform", "low": -b, "high": b}
            t.notes.append(f"the model initializes '{t.name}' with one sign only ([{lo:.3g}, {hi:.3g}])")
            return {"kind": "uniform", "low": float(f"{lo:.3g}"), "high": float(f"{hi:.3g}")}
        # Integer tensors: indices or codes.
        if t.source[0] == "input":
            i = t.source[2]
            ranges = [r.int_range.get(i) for r in self.runs]
        else:
            ranges = [[int(x.min().int()), int(x.max().int())] if x.numel() else None for x in t.runs]
            t.notes.append(f"state '{t.source[1]}' is an integer tensor the model initializes itself; the harness "
                           f"fills it with random values in the range below")
        if any(r is None for r in ranges):
            return {"kind": "int_range", "low": 0, "high": 0}
        low = min(r[0] for r in ranges)
        highs = [r[1] for r in ranges]
        # Indices into a table of V rows: the largest value drawn is V - 1 (or, for a large fixed V
        # that few draws do not reach, within 10 % of it). A bound alone does not make V a size.
        cands = [(v, [p[v] for p in self.values], True) for v in self.free]
        cands += [(v, [val] * len(self.values), False) for v, val in self.frozen.items() if val > 0]
        for exact in (True, False):
            for v, vals, free in cands:
                if all((h + 1 == n) if exact else (0.9 * n <= h + 1 <= n) for h, n in zip(highs, vals)) \
                        and vals[0] - 1 >= low:
                    if free:
                        t.int_high_var = v
                        return {"kind": "int_range", "low": low, "high": f"{v} - 1"}
                    return {"kind": "int_range", "low": low, "high": vals[0] - 1}
        if any(h != highs[0] for h in highs):
            raise Refusal(f"integer {t.role} '{t.name}': its largest value changes with the sizes "
                          f"({highs[0]} at ({self.desc(0)}), {highs[1]} at ({self.desc(1)})) "
                          f"but is no variable minus 1")
        return {"kind": "int_range", "low": low, "high": max(highs[0], low)}

    def _init_arg(self, i):
        vals = [r.init[i] for r in self.runs]
        what = f"get_init_inputs()[{i}]"
        name = self.init_ast[i] if self.init_ast and i < len(self.init_ast) else None
        return self._init_value(vals, what, name, top=True)

    def _init_value(self, vals, what, name, top=False):
        v0 = vals[0]
        kinds = {type(v) for v in vals}
        if len(kinds) != 1:
            raise Refusal(f"{what} changes its type with the sizes")
        if v0 is None or isinstance(v0, (bool, str)):
            if any(v != v0 for v in vals):
                raise Refusal(f"{what} ({short(v0)}) changes with the sizes")
            return repr(v0)
        if isinstance(v0, int):
            term = self._product(vals, f"{what} ({v0} at ({self.desc(0)}))")
            return term.c if term.is_const() else python_expr(term.text(self.free))
        if isinstance(v0, float):
            if any(v != v0 for v in vals):
                raise Refusal(f"{what} = {v0} changes with the sizes: a float computed from the int variables "
                              f"cannot be expressed")
            if not math.isfinite(v0):
                raise Refusal(f"{what} is {v0}: task.json cannot hold a non-finite number")
            if name in self.floats and self.floats[name] == v0:
                self.used.add(name)
                return name
            # Without the source of the return statement, a module float of the same value is the param.
            matches = [n for n, fv in self.floats.items() if fv == v0]
            if matches and name is None:
                self.used.add(matches[0])
                return matches[0]
            return v0 if top else repr(v0)
        if isinstance(v0, (tuple, list)):
            if len({len(v) for v in vals}) != 1:
                raise Refusal(f"{what} changes its length with the sizes")
            parts = [self._init_value([v[j] for v in vals], f"{what}[{j}]", None) for j in range(len(v0))]
            parts = [p if isinstance(p, str) else json.dumps(p) for p in parts]
            if isinstance(v0, tuple):
                return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
            return "[" + ", ".join(parts) + "]"
        raise Refusal(f"{what} is a {type(v0).__name__} ({short(v0)}): only numbers, bools, strings, None and "
                      f"tuples/lists of them can be written into task.json's torch.init")

    def tensors(self):
        return self.inputs + self.state + self.outputs

    def predicts(self, run):
        """Whether a run at other sizes matches the inferred shapes (outputs: by element count,
        as the harness compares them)."""
        vals = run.values
        if run.n_forward != len(self.inputs) or len(run.outputs) != len(self.outputs) or \
                list(run.state) != [t.source[1] for t in self.state]:
            return "a different set of tensors"
        for t in self.inputs:
            got = list(run.inputs[t.source[2]].shape)
            if got != [prod_value(s, vals) for s in t.shape] and not (got == [] and t.shape == [Size(1)]):
                return f"input '{t.name}' has shape {got}"
        for t in self.state:
            got = list(run.state[t.source[1]].shape)
            if got != [prod_value(s, vals) for s in t.shape]:
                return f"state '{t.source[1]}' has shape {got}"
        for t in self.outputs:
            o = run.outputs[t.source[1]]
            if o.numel() != prod_value(t.numel(), vals):
                return f"output '{t.name}' has shape {list(o.shape)}"
        return None


class Unusable(Exception):
    """Sizes the importer could express on its probes that fail elsewhere (another configuration,
    the smallest sizes): another choice of fixed variables may do."""


def validate(module, a):
    """Runs the model on two more configurations mixing the probe sizes and checks that the
    inferred shapes predict it; a configuration the model refuses checks nothing."""
    extra = [{v: 2 * a.probes[0][v] + 3 for v in a.free},
             {v: a.probes[2][v] + 4 + 3 * i for i, v in enumerate(a.free)}]
    for cfg in extra:
        try:
            run = run_model(module, {**cfg, **a.frozen}, meta=True)
        except (ProbeError, Refusal):
            continue
        wrong = a.predicts(run)
        if wrong is not None:
            raise Unusable(f"the sizes read off the probes do not hold at ({where(cfg)}): {wrong}")


def validate_unseen(module, a, seen, limit=1 << 20, count=4):
    """The same check on the smallest unseen configurations the task will hold."""
    unseen, _ = make_configs(a, seen, a.mins)
    small = sorted((c for c in unseen if max_numel(a, c) <= limit), key=lambda c: max_numel(a, c))[:count]
    for cfg in small:
        try:
            run = run_model(module, {**cfg, **a.frozen}, meta=True)
        except (ProbeError, Refusal) as e:
            raise Unusable(f"the model fails on the configuration ({where(cfg)}) the task would hold: {e}")
        wrong = a.predicts(run)
        if wrong is not None:
            raise Unusable(f"the sizes read off the probes do not hold at ({where(cfg)}): {wrong}")


def analyze(module, path_vars, float_vars, init_ast, init_only, keep=(), seen=None):
    """Finds which int variables vary (the others are kept at their file values) and the shapes.
    When the model fails or gives sizes the importer cannot express with every variable free, it
    tries keeping init-only variables fixed (a reduction axis or a kernel size is no shape). When
    the model only ever fails (an exception, never an inexpressible size), it also tries keeping
    variables get_inputs() uses (sizes tied by a relation, e.g. a tuple computed at import), and
    last, tying variables of equal file values into one (sizes the model needs equal). Each
    candidate must also predict the model's sizes on configurations other than its probes and
    work at its smallest sizes (a.mins)."""
    free_all = [v for v in path_vars if path_vars[v] > 0 and v not in keep]
    fixed0 = {v: path_vars[v] for v in path_vars if path_vars[v] <= 0 or v in keep}
    order = sorted(free_all, key=lambda v: (path_vars[v], free_all.index(v)))
    init_vars = [v for v in order if v in init_only]
    phase1 = [((), ())] + [(k, ()) for n in range(1, len(init_vars) + 1) for k in itertools.combinations(init_vars, n)]
    phase2 = [(k, ()) for n in range(1, len(order)) for k in itertools.combinations(order, n)
              if not set(k) <= init_only]
    ties = [(u, v) for u, v in itertools.combinations(free_all, 2) if path_vars[u] == path_vars[v]]
    phase3 = [((), (t,)) for t in ties] + [(tuple(init_vars), (t,)) for t in ties if init_vars]
    refusal = crash = None
    tries = 0
    for phase, cands in ((1, phase1), (2, phase2), (3, phase3)):
        if phase >= 2 and refusal is not None:
            break  # sizes it cannot express: keeping get_inputs() sizes fixed would only hide them
        tries = 0
        for keep_set, tie in cands:
            tries += 1
            if tries > MAX_FREEZE_TRIES:
                break
            ALIASES.clear()
            ALIASES.update({v: u for u, v in tie})
            free = [v for v in free_all if v not in keep_set and v not in ALIASES]
            frozen = {**fixed0, **{v: path_vars[v] for v in keep_set}}
            if not free:
                continue
            try:
                a = Analysis(module, free, frozen, float_vars, init_ast)
                why = {v: "kept by --keep" if v in keep else "not a size (<= 0)" for v in fixed0}
                why.update({v: "the model fails, or gives sizes the importer cannot express, when it varies"
                            for v in keep_set})
                # Variables no size depends on are no shape: keep them at their file values.
                while any(v not in a.used for v in a.free):
                    why.update({v: "no size depends on it" for v in a.free if v not in a.used})
                    free = [v for v in a.free if v in a.used]
                    frozen = {**a.frozen, **{v: path_vars[v] for v in a.free if v not in a.used}}
                    a = Analysis(module, free, frozen, float_vars, init_ast)
                a.frozen_why = why
                a.ties = dict(ALIASES)
                validate(module, a)
                a.mins = find_minimums(module, a, {v: path_vars[v] for v in a.free})
                validate_unseen(module, a, {v: path_vars[v] for v in a.free})
                return a
            except Refusal as e:
                refusal = refusal or e
                if phase >= 2:
                    break
            except (ProbeError, Unusable) as e:
                crash = crash or e
    ALIASES.clear()
    if refusal is not None:
        raise refusal
    if isinstance(crash, Unusable):
        raise Refusal(f"{crash}, and keeping variables fixed or tying equal ones does not help")
    raise Refusal(f"the model fails {crash} (the importer gives every int variable its own small prime: "
                  f"models that need relations between sizes, such as divisible sizes, cannot be "
                  f"imported unless keeping some variables at their file values, or tying equal ones, helps)")


# --- minimums, configurations ------------------------------------------------------------------

def finite(tensors):
    return all(bool(torch.isfinite(t.double()).all()) for t in tensors if t.is_floating_point())


def find_minimums(module, a, seen):
    """The smallest value of each variable (1 where the model handles it) with the others at probe sizes."""
    base = {**a.probes[0], **a.frozen}
    base_finite = finite(a.runs[0].outputs)

    def works(cfg):
        """Shapes first (on the meta device), then, where the probes' outputs were finite, a real
        run whose outputs must be finite too."""
        try:
            if a.predicts(run_model(module, cfg, meta=True)) is not None:
                return False
            return not base_finite or finite(run_model(module, cfg).outputs)
        except (ProbeError, Refusal):
            return False

    mins = {}
    for v in a.free:
        mins[v] = a.probes[0][v]
        # Power products work from 1 on; affine sizes (a convolution's output) from a few more.
        for cand in range(1, a.probes[0][v]):
            if works({**base, v: cand}):
                mins[v] = cand
                break
        mins[v] = min(mins[v], seen[v])
    for t in a.inputs + a.state:  # an index range [low, V - 1] needs V > low
        var = getattr(t, "int_high_var", None)
        if var:
            mins[var] = max(mins[var], int(t.dist["low"]) + 1)

    # Every variable at its minimum at once (e.g. instance norm needs 2 spatial elements):
    # raise the innermost sizes by one, in turn, until the model handles it.
    tries = 0
    while not works({**mins, **a.frozen}):
        bump = [v for v in reversed(a.free) if mins[v] < min(seen[v], a.probes[0][v])]
        tries += 1
        if not bump or tries > 64:
            raise Unusable(f"the model fails on its smallest sizes ({where(mins)})")
        mins[bump[(tries - 1) % len(bump)]] += 1
    return mins


def max_numel(a, cfg):
    return max(prod_value(t.numel(), cfg) for t in a.tensors())


def cap(a, cfg, mins, work_cap):
    """Halves the largest variable of the biggest tensor (staying odd) until every tensor has at
    most 2^26 elements and the product of all variables stays under work_cap."""
    cfg = dict(cfg)
    for _ in range(200):
        big = max(a.tensors(), key=lambda t: prod_value(t.numel(), cfg))
        if prod_value(big.numel(), cfg) > MAX_ELEMS:
            pool = [v for v in a.free if v in big.numel().vars() and cfg[v] > mins[v]]  # file order: deterministic
        elif math.prod(cfg.values()) > work_cap:
            pool = [v for v in cfg if cfg[v] > mins[v]]
        else:
            return cfg
        if not pool:
            return cfg
        v = max(pool, key=lambda x: cfg[x])
        cfg[v] = max(mins[v], (cfg[v] // 2) | 1)
    return cfg


def make_configs(a, seen, mins):
    free = a.free
    work_cap = max(WORK_CAP, 4 * math.prod(seen.values()))
    small = [3, 7, 13, 5, 11, 17, 19, 23]
    cands = [
        {v: mins[v] for v in free},
        {v: next_prime(max(small[i % len(small)], mins[v])) for i, v in enumerate(free)},
        {v: 997 if seen[v] >= 500 else 97 if seen[v] >= 50 else next_prime(seen[v] + 1) for v in free},
        {v: odd(seen[v] // 3) for v in free},
        {v: odd(seen[v] + seen[v] // 2 + 1) for v in free},
    ]
    if len(free) >= 2:
        cands.append({v: odd(seen[v] * 8 + 1) if i == 0 else odd(seen[v] // 16) for i, v in enumerate(free)})
    else:
        cands.append({free[0]: 65537})
    unseen = []
    for k in itertools.count():
        if k < len(cands):
            c = cands[k]
        elif len(unseen) < 5 and k < 40:
            c = {v: next_prime(mins[v] + 6 * (k - len(cands)) + 2 * i + 1) for i, v in enumerate(free)}
        else:
            break
        c = cap(a, {v: max(mins[v], c[v]) for v in free}, mins, work_cap)
        if c != seen and c not in unseen:
            unseen.append(c)
    ranges = {v: [mins[v], max(mins[v], 2 * seen[v])] for v in free}
    # One bound per tensor size, leaving out sizes another bound covers (all variables are >= 1).
    terms = []
    for t in a.tensors():
        term = t.numel()
        if not term.is_const() and term not in terms:
            terms.append(term)
    require = [f"{prod_text(t, free)} <= {MAX_ELEMS}" for t in terms if not any(o.covers(t) for o in terms)]
    return unseen, {"count": 3, "ranges": ranges, "require": require}


# --- the task folder ---------------------------------------------------------------------------

def cost_bytes(a):
    sums, order = {}, []
    for t in a.tensors():
        n = t.numel()
        if n.key() not in sums:
            order.append(n)
            sums[n.key()] = 0
        sums[n.key()] += n.c * DTYPE_SIZE[t.dtype]
    # Larger sizes first: more factors, then higher powers of the first variables.
    def rank(n):
        pows = {f[1]: f[2] for f in n.factors if f[0] == "pow"}
        return (-len(n.factors) - sum(pows.values()), [-pows.get(v, 0) for v in a.free])
    terms = [Size(sums[n.key()], n.factors).text(a.free, alone=False) for n in sorted(order, key=rank)]
    return " + ".join(terms)


def model_doc(module):
    doc = module.Model.__dict__.get("__doc__")
    return inspect.cleandoc(doc) if isinstance(doc, str) and doc.strip() else ""


def build_spec(a, name, category, path, seen, mins, unseen, fuzz):
    doc = model_doc(a.module)
    first = re.split(r"(?<=\.)\s|\n\s*\n", doc, maxsplit=1)[0] if doc else ""
    first = " ".join(first.split())
    desc = first or f"The PyTorch model of {os.path.basename(path)}"
    if len(desc) > 300:
        desc = desc[:297] + "..."
    params = [{"name": v, "type": "int", "min": mins[v]} for v in a.free]
    params += [{"name": f, "type": "float", "default": a.floats[f]} for f in a.float_params]
    float_outs = [t for t in a.outputs if t.dtype in TOLERANCE]
    default_tol = dict(TOLERANCE[float_outs[0].dtype]) if float_outs else {"exact": True}
    tensors = []
    for t in a.tensors():
        entry = {"name": t.name, "dtype": t.dtype, "shape": [prod_entry(s, a.free) for s in t.shape], "role": t.role}
        if t.role == "input":
            entry["dist"] = t.dist
        elif t.dtype in TOLERANCE and TOLERANCE[t.dtype] != default_tol:
            entry["tol"] = dict(TOLERANCE[t.dtype])
        tensors.append(entry)
    torch_section = {"init": a.init, "inputs": [t.name for t in a.inputs]}
    if a.state:
        torch_section["state"] = {t.name: t.source[1] for t in a.state}
    torch_section["outputs"] = [t.name for t in a.outputs]
    return {
        "schema": 1,
        "name": name,
        "suite": "torch2hip",
        "category": category,
        "description": desc,
        "params": params,
        "tensors": tensors,
        "torch": torch_section,
        "configs": {"seen": [seen], "unseen": unseen, "fuzz": fuzz},
        "tolerance": default_tol,
        "cost": {"bytes": cost_bytes(a), "flops": "0"},
        "candidate": "kernel.hip",
    }


def build_readme(a, spec, path, review):
    doc = model_doc(a.module)
    lines = [f"# {spec['name']}", ""]
    lines.append("Translate `reference.py` into HIP: compute what `Model.forward()` computes, through the kernel ABI.")
    lines.append("")
    if doc:
        lines += [doc, ""]
    lines.append("Tensors (row-major, contiguous), in ABI order:")
    lines.append("")
    for t in a.tensors():
        shape = ", ".join(str(prod_entry(s, a.free)) for s in t.shape)
        if t.source[0] == "input":
            what = f"forward() argument `{t.source[1]}`"
        elif t.source[0] == "state":
            what = f"model state `{t.source[1]}`"
        else:
            what = "forward()'s result" if len(a.outputs) == 1 else f"forward()'s result {t.source[1]}"
            if len(t.runs[0].shape) == 0:
                what += ", a 0-d tensor: one element"
        lines.append(f"- `{t.name}`: {t.dtype} [{shape}], {t.role} ({what})")
    lines.append("")
    ints = ", ".join(f"`{v}`" for v in a.free)
    floats = ", ".join(f"`{f}` (default {a.floats[f]})" for f in a.float_params)
    abi = f"ABI: tensors {', '.join(f'`{t.name}`' for t in a.tensors())} (in that order); ints {ints}"
    abi += f"; floats {floats}." if floats else "."
    lines.append(abi)
    mins = ", ".join(f"`{p['name']}` >= {p['min']}" for p in spec["params"] if p["type"] == "int")
    lines.append(f"Any shape must work, not only the seen configurations: every int param from its minimum "
                 f"({mins}) up.")
    lines.append("")
    lines.append("## Review")
    lines.append("")
    lines.append(f"Made from `{os.path.basename(path)}` (KernelBench format). Before this task is used, a "
                 f"maintainer must check:")
    lines.append("")
    for item in review:
        lines.append(f"- {item}")
    lines.append("")
    return "\n".join(lines)


def review_items(a, spec, warnings_):
    items = [
        "cost.flops is \"0\": write the FLOP count of the computation (cost.bytes counts every tensor once).",
        "tolerances are set by output dtype only (" + ", ".join(
            f"{t.name}: " + ("exact (integer)" if t.dtype not in TOLERANCE else
                             json.dumps(e.get("tol", spec["tolerance"])))
            for t, e in zip(a.tensors(), spec["tensors"]) if t.role == "output") +
        "); reductions and matmuls need looser ones, and eager PyTorch must pass them against the float64 oracle.",
        "input distributions: " + "; ".join(f"{t.name} {json.dumps(t.dist)}" for t in a.inputs + a.state) +
        ". Make them fit the model's domain (log, sqrt, division) and keep outputs far above atol.",
        "the seen configuration is the file's own sizes: eager PyTorch should take at least ~40 us on it; "
        "check the unseen configurations and the fuzz domain against the model's cost.",
        "there is no solution.hip: the task does not pass selftest until an expert solution is added.",
    ]
    for k, v in a.frozen.items():
        items.append(f"`{k}` is kept at its file value {v} (a literal, not a param): "
                     f"{a.frozen_why.get(k, 'fixed')}.")
    for tied, driver in getattr(a, "ties", {}).items():
        items.append(f"`{tied}` is tied to `{driver}` (equal in the file; the model fails when they differ): one "
                     f"param drives both.")
    for line in getattr(a, "changed", []):
        items.append(f"the seen configuration differs from the file: {line} (`--set`); the task's results are "
                     f"not those of the file's sizes.")
    for pseudo, (tup, i) in TUPLE_VARS.items():
        if pseudo in a.free:
            items.append(f"`{pseudo}` is element {i} of the file's tuple `{tup}` (a param of its own; the harness "
                         f"does not set `{tup}`, which only get_inputs() reads).")
    low = a.runs[0].low_precision_fallback
    if low:
        items.append(f"PyTorch's CPU kernels lack {low} ops this model uses: the importer ran it in float32 "
                     f"and gave float outputs the inputs' {low}; check the output dtypes")
    for i, pname, v in a.dropped:
        items.append(f"get_inputs()[{i}] ({short(v)}) is not passed: it equals forward()'s default for `{pname}`.")
    for t in a.tensors():
        items += t.notes
    items += warnings_
    return [i if i.endswith(".") else i + "." for i in items]


# --- checks through the harness --------------------------------------------------------------

def harness_check(task_dir, spec, configs):
    """Runs the harness's own oracle (arena_torch) on a few configurations, as configure and the
    correctness gate will. Returns (error or None, notes)."""
    sys.path.insert(0, HERE)
    import ctypes
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


# --- main ------------------------------------------------------------------------------------

def apply_settings(module, settings):
    """--set NAME=VALUE: a module-level variable gets another value (of the same kind) before
    anything runs; returns README lines saying what changed."""
    changed = []
    for k, v in settings:
        if k not in vars(module) or k.startswith("__"):
            raise Refusal(f"--set {k}: the problem file has no module-level variable '{k}'")
        old = getattr(module, k)
        ok = (type(old) is int and type(v) is int) or (type(old) is float and type(v) in (int, float)) or \
            (isinstance(old, tuple) and isinstance(v, tuple) and len(old) == len(v) and all(type(e) is int for e in v))
        if not ok:
            raise Refusal(f"--set {k}={v!r}: the file's value is {old!r}; give a value of the same kind")
        setattr(module, k, float(v) if type(old) is float else v)
        changed.append(f"`{k}` = {v!r} (the file has {old!r})")
    return changed


def import_problem(path, out_dir, name, category, log, settings=(), keep=()):
    """Returns the task folder written; raises Refusal."""
    out_dir = os.path.abspath(out_dir)
    target = os.path.join(out_dir, name)
    if os.path.exists(target):
        raise Refusal(f"{target} already exists (choose another --name or --out; nothing is overwritten)")
    module = load_problem(path)
    changed = apply_settings(module, settings)
    get_inputs = module.get_inputs
    get_init = getattr(module, "get_init_inputs", None)
    in_inputs = global_names(get_inputs, module)
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
    for k in keep:
        if k not in int_vars:
            raise Refusal(f"--keep {k}: no int variable of that name is read by get_inputs()/get_init_inputs() "
                          f"(they are: {', '.join(int_vars) or 'none'})")
    if not int_vars:
        raise Refusal("get_inputs()/get_init_inputs() use no module-level int variables: fixed shapes give "
                      "no unseen configurations")
    init_ast = returned_names(get_init) if get_init else None
    a = analyze(module, int_vars, float_vars, init_ast, set(in_init) - set(in_inputs), keep=set(keep))
    a.changed = changed
    if not a.free:
        raise Refusal("no int variable changes a tensor's size: fixed shapes give no unseen configurations")
    seen = {v: int_vars[v] for v in a.free}
    if a.frozen:
        log("kept at their file values (literals, not params): " + ", ".join(f"{k}={v}" for k, v in a.frozen.items()))
    mins = a.mins
    unseen, fuzz = make_configs(a, seen, mins)
    notes = []
    for t in a.tensors():
        n = prod_value(t.numel(), seen)
        if n > MAX_ELEMS:
            notes.append(f"the seen configuration (the file's sizes) gives tensor '{t.name}' {n} elements, more "
                         f"than 2^26: kept, but consider smaller sizes")
            log(f"warning: seen configuration: tensor '{t.name}' has {n} elements (> 2^26); kept as in the file")
    spec = build_spec(a, name, category, path, seen, mins, unseen, fuzz)

    tmp_root = tempfile.mkdtemp(prefix="arena-import-")
    try:
        work = os.path.join(tmp_root, name)
        os.mkdir(work)
        shutil.copyfile(path, os.path.join(work, "reference.py"))

        def write(review):
            with open(os.path.join(work, "task.json"), "w") as f:
                f.write(compact_json(spec) + "\n")
            with open(os.path.join(work, "README.md"), "w") as f:
                f.write(build_readme(a, spec, path, review))

        write(review_items(a, spec, notes))
        by_size = sorted(spec["configs"]["seen"] + unseen, key=lambda c: (max_numel(a, c), math.prod(c.values())))
        checks = by_size[:2] + [c for c in by_size[2:] if max_numel(a, c) <= 4096]
        err, check_notes = harness_check(work, spec, checks)
        if err is not None:
            spec["torch"]["oracle"] = "native"  # an op without float64 support: run in the tensors' dtypes
            write(review_items(a, spec, notes))
            err2, check_notes = harness_check(work, spec, checks)
            if err2 is not None:
                raise Refusal(err)
            notes.append("the model fails in float64, so the oracle runs in the tensors' own dtypes "
                         "(torch.oracle \"native\"): tolerances must allow for that")
        notes += check_notes
        for n in check_notes:
            log("warning: " + n)
        write(review_items(a, spec, notes))
        os.makedirs(out_dir, exist_ok=True)
        if os.path.exists(target):
            raise Refusal(f"{target} already exists (choose another --name or --out; nothing is overwritten)")
        partial = tempfile.mkdtemp(prefix=f".{name}.partial-", dir=out_dir)
        try:
            for f in os.listdir(work):
                shutil.copyfile(os.path.join(work, f), os.path.join(partial, f))
            os.chmod(partial, 0o755)
            os.rename(partial, target)
        except BaseException:
            shutil.rmtree(partial, ignore_errors=True)
            raise
    finally:
        shutil.rmtree(tmp_root, ignore_errors=True)
    return target, spec


def main(argv=None):
    p = argparse.ArgumentParser(prog=PROG, description="Turns a KernelBench problem file into a torch2hip task folder.")
    p.add_argument("problem", help="the KernelBench problem file (Model, get_inputs, get_init_inputs)")
    p.add_argument("--out", default=DEFAULT_OUT,
                   help="folder that receives <name>/ (default: the repository's tasks/torch2hip)")
    p.add_argument("--name", help="task name (default: the file name, lowercased, other characters as '_')")
    p.add_argument("--category", default="imported", help="task category (default: imported)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="give a module-level variable another value (a Python literal of the same kind) before "
                        "the import: the seen configuration's sizes (e.g. --set batch_size=16); repeatable")
    p.add_argument("--keep", action="append", default=[], metavar="NAME",
                   help="keep an int variable at its value (a literal in task.json, not a param); repeatable")
    args = p.parse_args(argv)
    path = args.problem

    def refuse(what):
        print(f"{PROG}: {path}: {what}", file=sys.stderr, flush=True)
        return 1

    global torch
    try:
        import torch as _torch
        torch = _torch
    except ImportError as e:
        return refuse(f"PyTorch cannot be imported by {sys.executable} ({e}): run the importer with a Python "
                      f"that has it, e.g. /usr/bin/python3 {os.path.abspath(sys.argv[0])} ...")
    name = args.name if args.name is not None else sanitize(os.path.splitext(os.path.basename(path))[0])
    for what, value in (("name", name), ("category", args.category)):
        if not re.fullmatch(r"[a-z0-9_]+", value or ""):
            return refuse(f"{what} \"{value}\" must be lowercase letters, digits and '_'")
    logs = []
    if os.path.basename(os.path.normpath(os.path.abspath(args.out))) != "torch2hip":
        logs.append(f"warning: --out {args.out} is not a folder named torch2hip; the harness reads tasks from "
                    f"<tasks>/torch2hip/<name>/")
    settings = []
    for item in args.set:
        key, eq, text = item.partition("=")
        try:
            if not eq or not key.strip():
                raise ValueError("NAME=VALUE")
            settings.append((key.strip(), ast.literal_eval(text.strip())))
        except (ValueError, SyntaxError) as e:
            return refuse(f"--set {item}: not NAME=<Python literal> ({e})")
    try:
        target, spec = import_problem(path, args.out, name, args.category, logs.append, settings, args.keep)
    except Refusal as e:
        return refuse(str(e))
    except KeyboardInterrupt:
        return refuse("interrupted")
    except Exception as e:  # a bug of the importer, still reported on one line
        if os.environ.get("ARENA_PY_TRACEBACK"):
            import traceback
            traceback.print_exc()
        return refuse(f"internal error: {type(e).__name__}: {first_line(e)}")
    for line in logs:
        print(f"{PROG}: {path}: {line}", file=sys.stderr)
    ints = [q["name"] for q in spec["params"] if q["type"] == "int"]
    print(f"{PROG}: wrote {target} (int params {', '.join(ints)}; {len(spec['tensors'])} tensors; "
          f"{len(spec['configs']['unseen'])} unseen configurations)")
    print(f"{PROG}: no solution.hip: the task does not pass selftest until an expert solution is added; "
          f"review the README's Review section (flops, tolerances, distributions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
