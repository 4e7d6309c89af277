"""Each tensor's shape, dtype and distribution, and the init arguments, read off probe runs of
the model; which int variables become params, which stay literals and which are tied."""
import itertools
import json
import math

import torch

from . import probe
from .common import ProbeError, Refusal, Unusable, ident, short, where
from .configs import find_minimums, make_configs, max_numel
from .probe import run_model
from .sizes import Size, infer_product, infer_size, prod_mul, prod_value, python_expr, MAX_STRIDE

PRIMES = [5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 101, 103,
          107, 109, 113, 127, 131, 137, 139, 149, 151, 157, 163, 167, 173, 179, 181, 191, 193, 197, 199]
PROBE_STARTS = (0, 4, 9)    # indices into PRIMES: probes from 5, then from 17, then from 37
MAX_FREEZE_TRIES = 32


class NeedSweeps(Exception):
    """A size is no product of variable powers: the analysis needs one-variable sweeps."""


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

    def __init__(self, module, free, frozen, floats, init_ast, file_values=None):
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
        # The smallest primes go to the variables with the smallest file values: a kernel size of
        # 3 probed as 5 rather than 13 keeps a 3D convolution's probe seconds long on a CPU.
        values = file_values or {}
        rank = {v: i for i, v in enumerate(sorted(free, key=lambda v: (values.get(v, 0), free.index(v))))}
        error = probes = runs = None
        for start in PROBE_STARTS:
            if start + len(free) + 2 >= len(PRIMES):
                break
            cand = [{v: PRIMES[start + rank[v] + k] for v in free} for k in range(3)]
            cand.append({v: PRIMES[start + rank[v]] + 1 for v in free})  # even sizes: a check
            try:
                runs = [self._run(vals) for vals in cand]
                probes = cand
                break
            except ProbeError as e:
                error = error or e
        if runs is None:
            raise error
        self.probes, self.runs, self.sweeps = probes, runs, {}
        self.long_sweeps = False
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
                self.sweep_longer()

    def sweep_longer(self):
        """Sweeps up to 2 * MAX_STRIDE, where the probes or the first 8 swept values could not tell
        (a pool of 11 whose output stays 1 over them). False when that was done already."""
        if self.long_sweeps:
            return False
        self.long_sweeps = True
        self._sweep(9 if self.sweeps else 1, 2 * MAX_STRIDE)
        self._analyze()
        return True

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
            # A 0-d tensor is one element: the harness matches outputs by count and binds a 0-d
            # state entry as shape [1] (arena_torch.TorchTask.state_of).
            shape = [Size(1)]
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
            # The same value on every probe is a constant, whatever its sign: a padding of 0 or a
            # clamp bound of -1 is no size, and factoring it as one would refuse it.
            if all(v == v0 for v in vals):
                return v0
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
            if got != [prod_value(s, vals) for s in t.shape] and not (got == [] and t.shape == [Size(1)]):
                return f"state '{t.source[1]}' has shape {got}"
        for t in self.outputs:
            o = run.outputs[t.source[1]]
            if o.numel() != prod_value(t.numel(), vals):
                return f"output '{t.name}' has shape {list(o.shape)}"
        return None


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
    if len(phase1) > MAX_FREEZE_TRIES:
        # Too many subsets to try them all: the last try keeps every init-only variable (a
        # convolution's kernel, stride, padding, groups and a channel count its groups divide).
        phase1 = phase1[:MAX_FREEZE_TRIES - 1] + [phase1[-1]]
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
            probe.ALIASES.clear()
            probe.ALIASES.update({v: u for u, v in tie})
            free = [v for v in free_all if v not in keep_set and v not in probe.ALIASES]
            frozen = {**fixed0, **{v: path_vars[v] for v in keep_set}}
            if not free:
                continue
            try:
                a = Analysis(module, free, frozen, float_vars, init_ast, path_vars)
                why = {v: "kept by --keep" if v in keep else "not a size (<= 0)" for v in fixed0}
                why.update({v: "the model fails, or gives sizes the importer cannot express, when it varies"
                            for v in keep_set})
                # Variables no size depends on are no shape: keep them at their file values.
                while any(v not in a.used for v in a.free):
                    why.update({v: "no size depends on it" for v in a.free if v not in a.used})
                    free = [v for v in a.free if v in a.used]
                    frozen = {**a.frozen, **{v: path_vars[v] for v in a.free if v not in a.used}}
                    a = Analysis(module, free, frozen, float_vars, init_ast, path_vars)
                a.frozen_why = why
                a.ties = dict(probe.ALIASES)
                try:
                    validate(module, a)
                except Unusable:
                    # Sizes fitted on 8 swept values that other sizes contradict: sweep further.
                    if not a.sweep_longer():
                        raise
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
    probe.ALIASES.clear()
    if refusal is not None:
        raise refusal
    if isinstance(crash, Unusable):
        raise Refusal(f"{crash}, and keeping variables fixed or tying equal ones does not help")
    raise Refusal(f"the model fails {crash} (the importer gives every int variable its own small prime: "
                  f"models that need relations between sizes, such as divisible sizes, cannot be "
                  f"imported unless keeping some variables at their file values, or tying equal ones, helps)")
