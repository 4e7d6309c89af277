"""Tests of arena-import-kernelbench on the problem files in problems/.

    run_importer_tests.py --spec <arena-spec> [--case NAME]... [--alt-python PYTHON]

good_*.py must import. Each import goes to a temporary <tmp>/torch2hip/ and must
  (a) pass `arena-spec check`,
  (b) give, through the harness's own oracle (arena_torch.TorchTask/Oracle called with an
      ArenaRefArgs built with ctypes, on CPU), the outputs of the original Model run directly
      in float64 (its own get_init_inputs(), its state loaded from the same tensors) on the
      smallest generated configurations,
  (c) have unseen configurations that differ from the seen one and hold odd and prime sizes,
      tensors of at most 2^26 elements, and a fuzz domain whose `require` bounds every tensor,
plus what is particular to the case (names, bindings, expressions, params).
bad_*.py must be refused: exit status 1, one line naming the file and what is wrong, nothing written.
The case `cli` checks --name, --category, the default name and that nothing is overwritten;
`probe_device` that the probes run on the GPU where PyTorch sees one, and that the importer says where;
`batch` the --batch mode (counts, report, --jobs, --timeout-s, --stop-after-s) on a folder of two;
`threads` that each import of a batch runs PyTorch on cores // jobs threads (ARENA_IMPORT_THREADS);
`probe_limits` that a probe too large or too costly is refused from its meta-device shapes.
Exit status 77 (skipped) when this Python cannot import torch.
"""
import argparse
import ctypes
import importlib.util
import inspect
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PROBLEMS = os.path.join(HERE, "problems")
IMPORTER = os.path.join(REPO, "harness", "tools", "arena-import-kernelbench")
PYDIR = os.path.join(REPO, "harness", "python")
PROG = "arena-import-kernelbench"
MAX_ELEMS = 1 << 26

try:
    import torch
    import numpy as np
except ImportError as _e:
    # --alt-python: a second interpreter to try (CMake's ARENA_PYTHON), run with the same arguments.
    _argv = sys.argv[1:]
    _alt = _argv[_argv.index("--alt-python") + 1] if "--alt-python" in _argv[:-1] else ""
    if _alt and os.path.realpath(_alt) != os.path.realpath(sys.executable) and os.path.isfile(_alt) and \
            subprocess.run([_alt, "-c", "import torch, numpy"], capture_output=True).returncode == 0:
        os.execv(_alt, [_alt, os.path.abspath(__file__)] + _argv)
    print(f"SKIPPED: the importer tests need PyTorch (and numpy), and {sys.executable} cannot import it ({_e})"
          + (f"; neither can {_alt}" if _alt else ""))
    sys.exit(77)

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, PYDIR)
import arena_abi  # noqa: E402
import arena_task  # noqa: E402
import arena_torch  # noqa: E402


class Failure(Exception):
    pass


def expect(cond, what):
    if not cond:
        raise Failure(what)


def say(what):
    print(f"  ok: {what}", flush=True)


def is_prime(n):
    return n >= 2 and all(n % p for p in range(2, int(math.isqrt(n)) + 1))


def run_importer(problem, out, *extra):
    return subprocess.run([sys.executable, IMPORTER, problem, "--out", out, *extra],
                          capture_output=True, text=True, timeout=900)


_n = 0


def load_problem(path):
    global _n
    _n += 1
    spec = importlib.util.spec_from_file_location(f"importer_test_problem_{_n}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def file_value(module, name):
    """A module-level int, or element i of a module-level tuple for a param named <tuple>_<i>."""
    if hasattr(module, name):
        return getattr(module, name)
    tup, _, i = name.rpartition("_")
    return getattr(module, tup)[int(i)]


def shape_of(t, values):
    return [arena_task.eval_shape(e, values) for e in t["shape"]]


def numel(t, values):
    return math.prod(shape_of(t, values))


# --- (a) .. (c) for every good problem --------------------------------------------------------

def check_files(problem, folder, result):
    expect(result.returncode == 0, f"importer exit status {result.returncode}: {result.stderr.strip()}")
    expect(sorted(os.listdir(folder)) == ["README.md", "reference.py", "task.json"],
           f"task folder holds {sorted(os.listdir(folder))}")
    with open(problem, "rb") as a, open(os.path.join(folder, "reference.py"), "rb") as b:
        expect(a.read() == b.read(), "reference.py is not a verbatim copy")
    expect("solution.hip" in result.stdout, "the importer does not say that solution.hip is missing")
    say("exit 0; README.md, reference.py (verbatim), task.json and no solution.hip, as the importer says")
    with open(os.path.join(folder, "README.md")) as f:
        readme = f.read()
    for word in ("## Review", "flops", "tolerance", "distributions", "ABI: tensors", "must work"):
        expect(word in readme, f"README.md lacks '{word}'")
    say("README.md holds the ABI order, that any shape must work, and a Review section")


def check_spec_tool(spec_tool, task_json):
    r = subprocess.run([spec_tool, "check", task_json], capture_output=True, text=True, timeout=120)
    expect(r.returncode == 0 and "1 task spec(s) valid" in r.stdout,
           f"arena-spec check failed ({r.returncode}): {r.stdout.strip()} {r.stderr.strip()}")
    say("(a) arena-spec check: 1 task spec(s) valid")


def check_header(j, name, category="imported"):
    expect(j["schema"] == 1 and j["suite"] == "torch2hip" and j["candidate"] == "kernel.hip",
           "schema/suite/candidate")
    expect(j["name"] == name and j["category"] == category, f"name/category {j['name']}/{j['category']}")
    expect(j["cost"]["flops"] == "0", "cost.flops should be \"0\" (left for review)")
    say(f"task.json: schema 1, suite torch2hip, name {name}, category {category}, flops \"0\"")


def check_configs(j, problem_module):
    ints = [p for p in j["params"] if p["type"] == "int"]
    names = [p["name"] for p in ints]
    mins = {p["name"]: p.get("min", 1) for p in ints}
    seen = j["configs"]["seen"]
    expect(len(seen) == 1, "one seen configuration")
    expect(seen[0] == {k: file_value(problem_module, k) for k in names}, f"seen {seen[0]} is not the file's values")
    unseen = j["configs"]["unseen"]
    expect(len(unseen) >= 5, f"only {len(unseen)} unseen configurations")
    for u in unseen:
        expect(sorted(u) == sorted(names), f"unseen {u} does not set exactly the int params")
        expect(u != seen[0], f"unseen {u} equals the seen configuration")
        expect(all(u[k] >= mins[k] for k in names), f"unseen {u} goes below a param's min")
        for t in j["tensors"]:
            expect(numel(t, u) <= MAX_ELEMS, f"unseen {u}: tensor {t['name']} has {numel(t, u)} elements")
    expect(len({json.dumps(u, sort_keys=True) for u in unseen}) == len(unseen), "duplicate unseen configurations")
    sizes = [v for u in unseen for v in u.values()]
    expect(any(is_prime(v) and v >= 3 for v in sizes), "no prime size >= 3 among the unseen configurations")
    expect(any(v % 2 == 1 and v > 1 for v in sizes), "no odd size > 1 among the unseen configurations")
    expect(any(all(u[k] == mins[k] for k in names) for u in unseen), "no configuration at every param's min")
    say(f"(c) {len(unseen)} unseen configurations, all differ from seen {seen[0]}, hold odd and prime sizes "
        f"(primes: {sorted({v for v in sizes if is_prime(v)})[:6]}), tensors <= 2^26 elements")
    fuzz = j["configs"]["fuzz"]
    expect(fuzz["count"] == 3, "fuzz count")
    expect(sorted(fuzz["ranges"]) == sorted(names), "fuzz ranges cover the int params")
    for k, (lo, hi) in fuzz["ranges"].items():
        expect(lo == mins[k] and lo <= hi and hi >= seen[0][k], f"fuzz range {k}: [{lo}, {hi}] (min {mins[k]})")
    rng = random.Random(1)
    kept = 0
    for _ in range(3000):
        c = {k: int(round(math.exp(rng.uniform(math.log(lo), math.log(hi))))) for k, (lo, hi) in fuzz["ranges"].items()}
        c = {k: v * rng.choice([1, 1, 1, 64, 4096]) for k, v in c.items()}  # also far outside the ranges
        if all(arena_task.eval_shape(r, c) for r in fuzz["require"]):
            kept += 1
            for t in j["tensors"]:
                expect(numel(t, c) <= MAX_ELEMS, f"fuzz: {c} passes require {fuzz['require']} but tensor "
                                                 f"{t['name']} has {numel(t, c)} elements")
    expect(kept > 0, "no random configuration satisfies the fuzz require")
    say(f"(c) fuzz: count 3, ranges from 1-2 to >= seen, require {fuzz['require']} bounds every tensor")


def inputs_for(j, values, rng):
    arrays = []
    for t in j["tensors"]:
        n = numel(t, values)
        d = t.get("dist")
        if d is None:
            arr = np.full(n, np.nan)
        elif d["kind"] == "normal":
            arr = rng.normal(d.get("mean", 0), d.get("std", 1), n)
        elif d["kind"] == "uniform":
            arr = rng.uniform(d["low"], d["high"], n)
        else:
            lo = arena_task.eval_shape(d["low"], values)
            hi = arena_task.eval_shape(d["high"], values)
            arr = rng.integers(lo, hi + 1, n).astype(np.float64)
        if t["dtype"] in ("f32", "f16", "bf16"):  # values the task's dtype can hold, as the harness draws them
            arr = torch.from_numpy(arr).to(getattr(torch, arena_abi.DTYPES[t["dtype"]][0])).double().numpy()
        arrays.append(np.ascontiguousarray(arr, dtype=np.float64))
    return arrays


def check_oracle(j, folder, problem, n_configs=2):
    """(b): the harness's oracle against the original Model in float64."""
    task = arena_torch.TorchTask(folder)
    oracle = arena_torch.Oracle(task)
    expect(oracle.device == "cpu" or torch.cuda.is_available(), "oracle device")
    ints = [p["name"] for p in j["params"] if p["type"] == "int"]
    floats = [p for p in j["params"] if p["type"] == "float"]
    configs = j["configs"]["seen"] + j["configs"]["unseen"]
    configs = sorted(configs, key=lambda c: (max(numel(t, c) for t in j["tensors"]), sorted(c.items())))
    rng = np.random.default_rng(7)
    for cfg in configs[:n_configs]:
        values = {k: cfg[k] for k in ints}
        fvals = [cfg.get(p["name"], p["default"]) for p in floats]
        arrays = inputs_for(j, values, rng)
        dp = ctypes.POINTER(ctypes.c_double)
        args = arena_abi.ArenaRefArgs(
            (dp * len(arrays))(*[a.ctypes.data_as(dp) for a in arrays]),
            (ctypes.c_int64 * len(arrays))(*[a.size for a in arrays]), len(arrays),
            (ctypes.c_int64 * max(1, len(ints)))(*[values[k] for k in ints]), len(ints),
            (ctypes.c_double * max(1, len(fvals)))(*fvals), len(fvals))
        rc = oracle.reference(ctypes.pointer(args))
        expect(rc == 0, f"the harness's oracle failed on {cfg} (its message is above)")
        by_name = {t["name"]: (t, a) for t, a in zip(j["tensors"], arrays)}

        # The original model, built by its own get_init_inputs() at these sizes.
        module = load_problem(problem)
        for k, v in values.items():
            setattr(module, k, v)
        for p, v in zip(floats, fvals):
            setattr(module, p["name"], v)
        torch.manual_seed(0)
        model = module.Model(*module.get_init_inputs()).double().eval()

        def tensor(name):
            t, a = by_name[name]
            x = torch.from_numpy(a.copy()).reshape(shape_of(t, values))
            return x if t["dtype"].startswith(("f", "bf")) else x.to(getattr(torch, arena_abi.DTYPES[t["dtype"]][0]))

        # Bound by the importer's naming rules, not by task.json's torch section: state entries
        # by state_dict key ('.' -> '_'), inputs by forward()'s parameter names, outputs out/out<i>.
        keys = [k for k in model.state_dict() if not k.endswith("num_batches_tracked")]
        expect(all(k.replace(".", "_") in by_name for k in keys), f"state {keys} has no tensors of those names")
        own = model.state_dict()  # a 0-d entry is bound as shape [1]
        model.load_state_dict({k: tensor(k.replace(".", "_")).reshape(own[k].shape) if own[k].dim() == 0
                               else tensor(k.replace(".", "_")) for k in keys}, strict=False)
        fwd = list(inspect.signature(model.forward).parameters)[: len(j["torch"]["inputs"])]
        expect(sorted(fwd) == sorted(j["torch"]["inputs"]), f"inputs {j['torch']['inputs']}, forward() takes {fwd}")
        with torch.no_grad():
            out = model(*[tensor(n) for n in fwd])
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        expect(len(outs) == len(j["torch"]["outputs"]), "number of outputs")
        nonzero = False
        for i, o in enumerate(outs):
            name = "out" if len(outs) == 1 else f"out{i}"
            t, got = by_name[name]
            want = o.detach().double().reshape(-1).numpy()
            expect(want.size == got.size, f"output {name}: {want.size} elements, the oracle wrote {got.size}")
            expect(np.allclose(got, want, rtol=1e-12, atol=1e-12, equal_nan=True),
                   f"output {name} on {cfg}: the oracle differs from the model by {np.nanmax(np.abs(got - want))}")
            nonzero |= bool(np.any(want != 0))
        expect(nonzero, f"every output is zero on {cfg}: the comparison proves nothing")
        say(f"(b) harness oracle == original Model in float64 on {cfg} "
            f"({', '.join(j['torch']['outputs'])}; inputs {', '.join(j['torch']['inputs'])}"
            f"{'; state ' + ', '.join(j['torch']['state']) if j['torch'].get('state') else ''})")


def tensors_by_name(j):
    return {t["name"]: t for t in j["tensors"]}


def params(j, kind):
    return [p["name"] for p in j["params"] if p["type"] == kind]


# --- what each good problem shows --------------------------------------------------------------

def good_elementwise_two_inputs(j):
    t = tensors_by_name(j)
    expect([x["name"] for x in j["tensors"]] == ["x", "g", "out"], "tensors x, g, out in ABI order")
    expect(params(j, "int") == ["batch_size", "dim"] and not params(j, "float"), "params batch_size, dim")
    expect(all(t[n]["shape"] == ["batch_size", "dim"] for n in t), "shapes [batch_size, dim]")
    expect(j["torch"] == {"init": [], "inputs": ["x", "g"], "outputs": ["out"]}, f"torch {j['torch']}")
    expect(t["x"]["dist"] == {"kind": "normal", "mean": 0, "std": 1}, "float inputs are normal(0, 1)")
    expect(j["cost"]["bytes"] == "12 * batch_size * dim", f"cost.bytes {j['cost']['bytes']}")
    expect(j["tolerance"] == {"atol": 1e-5, "rtol": 1e-5}, f"f32 tolerance {j['tolerance']}")
    say("two inputs named from forward(x, g), shapes [batch_size, dim], bytes 12 * batch_size * dim, f32 tolerance")


def good_linear_bias(j):
    t = tensors_by_name(j)
    state = {"linear_weight": "linear.weight", "linear_bias": "linear.bias", "bn_weight": "bn.weight",
             "bn_bias": "bn.bias", "bn_running_mean": "bn.running_mean", "bn_running_var": "bn.running_var"}
    expect(j["torch"].get("state") == state, f"state binding {j['torch'].get('state')}")
    expect(not any("num_batches_tracked" in n for n in t), "num_batches_tracked is bound")
    expect(t["linear_weight"]["shape"] == ["out_features", "in_features"], "linear.weight shape")
    expect(t["linear_bias"]["shape"] == ["out_features"], "linear.bias shape")
    expect(j["torch"]["init"] == ["in_features", "out_features"], f"init {j['torch']['init']}")
    rv = t["bn_running_var"]["dist"]
    expect(rv["kind"] == "uniform" and rv["low"] > 0, f"running_var needs a positive distribution: {rv}")
    expect(t["out"]["shape"] == ["batch_size", "out_features"], "output shape")
    say("state bound by state_dict key (linear.weight -> linear_weight ...), num_batches_tracked skipped, "
        "running_var positive, init [in_features, out_features]")


def good_float_init(j):
    fl = {p["name"]: p for p in j["params"] if p["type"] == "float"}
    expect(list(fl) == ["scale", "eps"], f"float params {list(fl)}")
    expect(fl["scale"]["default"] == 0.75 and fl["eps"]["default"] == 1e-6, "float defaults are the file's values")
    expect(j["torch"]["init"] == ["dim", "scale", "eps", 0.25], f"init {j['torch']['init']}")
    expect(tensors_by_name(j)["weight"]["shape"] == ["dim"], "weight shape [dim]")
    say("float init args: module floats scale and eps become float params with defaults, the literal 0.25 stays")


def good_glu_reductions(j):
    t = tensors_by_name(j)
    expect(params(j, "int") == ["batch_size", "dim"], f"int params {params(j, 'int')} (reduce_dim kept fixed)")
    expect(t["x"]["shape"] == ["batch_size", "2 * dim"], f"x shape {t['x']['shape']}")
    expect(j["torch"]["outputs"] == ["out0", "out1", "out2"], "outputs out0, out1, out2")
    expect(t["out0"]["shape"] == ["batch_size", "dim"], "out0 shape")
    expect(t["out1"]["shape"] == ["batch_size"], "out1 (row sums) shape")
    expect(t["out2"]["shape"] == [1], "out2 (0-d mean) shape [1]")
    expect(j["torch"]["init"] == [1], f"init {j['torch']['init']} (reduce_dim as the literal 1)")
    expect(j["configs"]["fuzz"]["require"] == ["2 * batch_size * dim <= 67108864"], "require")
    say("product dim '2 * dim', reduction output [batch_size], 0-d output as [1], reduce_dim = 1 kept as a literal")


def good_embedding_lookup(j):
    t = tensors_by_name(j)
    expect(t["ids"]["dtype"] == "i64", "ids dtype i64")
    expect(t["ids"]["dist"] == {"kind": "int_range", "low": 0, "high": "num_embeddings - 1"},
           f"ids dist {t['ids']['dist']}")
    expect(t["embed_weight"]["shape"] == ["num_embeddings", "embedding_dim"], "embedding table shape")
    expect(t["out"]["shape"] == ["batch_size", "seq_len", "embedding_dim"], "output shape")
    say("integer input: i64 with int_range [0, num_embeddings - 1]; table bound as state embed.weight")


def good_tuple_init_default_arg(j):
    expect(j["torch"]["init"] == ["(features, width)", "eps", "True"], f"init {j['torch']['init']}")
    expect(j["torch"]["inputs"] == ["x"], f"inputs {j['torch']['inputs']} (the trailing -1 is forward()'s default)")
    t = tensors_by_name(j)
    expect(t["ln_weight"]["shape"] == ["features", "width"], "ln.weight shape")
    with open(os.path.join(j["_folder"], "README.md")) as f:
        expect("is not passed: it equals forward()'s default for `dim`" in f.read(), "README notes the dropped -1")
    say("init expressions the harness evaluates: a tuple of variables '(features, width)', a float param, a bool; "
        "a trailing non-tensor input equal to forward()'s default is left out")


def good_conv_output(j):
    t = tensors_by_name(j)
    expect(params(j, "int") == ["batch_size", "channels", "length"], f"int params {params(j, 'int')}")
    expect(t["out"]["shape"] == ["batch_size", "channels", "length - 2"], f"out shape {t['out']['shape']}")
    expect(t["conv_weight"]["shape"] == ["channels", "channels", 3], f"weight shape {t['conv_weight']['shape']}")
    mins = {p["name"]: p["min"] for p in j["params"]}
    expect(mins["length"] == 3 and mins["channels"] == 1, f"mins {mins}: length 3 is the shortest a 3-tap kernel takes")
    expect("batch_size * channels * (length - 2) <= 67108864" in j["configs"]["fuzz"]["require"],
           f"require {j['configs']['fuzz']['require']}")
    say("a convolution's output length: 'length - 2', min length 3, bounded in the fuzz require")


def good_affine_input_dim(j):
    t = tensors_by_name(j)
    expect(t["x"]["shape"] == ["batch_size", "dim + 1"], f"x shape {t['x']['shape']}")
    expect(t["out"]["shape"] == ["batch_size", "dim"], f"out shape {t['out']['shape']}")
    expect(j["cost"]["bytes"] == "4 * batch_size * dim + 4 * batch_size * (dim + 1)", f"bytes {j['cost']['bytes']}")
    say("an input one wider than the output: 'dim + 1'; cost.bytes sums both")


def good_conv_pool_flatten(j):
    t = tensors_by_name(j)
    want = "out_channels * ((height - 2) / 2) * ((width - 2) / 2)"
    expect(t["out"]["shape"] == ["batch_size", want], f"out shape {t['out']['shape']}")
    expect(j["torch"]["init"] == ["in_channels", "out_channels", 3], f"init {j['torch']['init']} (kernel_size literal)")
    mins = {p["name"]: p["min"] for p in j["params"]}
    expect(mins["height"] == 4 and mins["width"] == 4, f"mins {mins}: a 3x3 kernel then a 2x2 pool need 4")
    say(f"convolution, pool and flatten: '{want}' (integer division), min height and width 4")


def good_concat_linear(j):
    t = tensors_by_name(j)
    expect(t["proj_weight"]["shape"] == ["out_features", "a_features + b_features"], f"weight {t['proj_weight']['shape']}")
    expect(t["out1"]["shape"] == ["batch_size", "a_features + b_features"], f"out1 {t['out1']['shape']}")
    expect(t["out0"]["shape"] == ["batch_size", "out_features"], f"out0 {t['out0']['shape']}")
    say("a concatenation's width: 'a_features + b_features' in the weight and the output")


def good_tuple_shape_mask(j):
    t = tensors_by_name(j)
    expect(params(j, "int") == ["batch_size", "input_shape_0"], f"int params {params(j, 'int')}")
    expect(t["x"]["shape"] == ["batch_size", "input_shape_0"], f"x shape {t['x']['shape']}")
    expect(t["keep"]["dtype"] == "u8" and t["keep"]["dist"] == {"kind": "int_range", "low": 0, "high": 1},
           f"keep {t['keep']}")
    with open(os.path.join(j["_folder"], "README.md")) as f:
        text = f.read()
    expect("element 0 of the file's tuple `input_shape`" in text and "bool tensor" in text, "README notes")
    say("a tuple's element as its own param 'input_shape_0'; a bool mask as u8 in [0, 1]")


def good_tied_sizes(j):
    t = tensors_by_name(j)
    expect(params(j, "int") == ["batch_size"], f"int params {params(j, 'int')} (input_shape_0 tied to batch_size)")
    expect(t["x"]["shape"] == ["batch_size", "batch_size"], f"x {t['x']['shape']}")
    expect(t["weights"]["shape"] == ["batch_size"], f"weights {t['weights']['shape']}")
    with open(os.path.join(j["_folder"], "README.md")) as f:
        expect("`input_shape_0` is tied to `batch_size`" in f.read(), "README notes the tie")
    say("two sizes the model needs equal (equal in the file) tied into one param")


def good_pool_stride_param(j):
    t = tensors_by_name(j)
    expect(params(j, "int") == ["batch_size", "channels", "height", "width"], f"int params {params(j, 'int')}")
    expect(t["out"]["shape"] == ["batch_size", "channels", "(height + 1) / 2", "(width + 1) / 2"],
           f"out shape {t['out']['shape']}")
    expect(j["torch"]["init"] == [3, 2, 1, 1], f"init {j['torch']['init']} (window, step, pad, spread kept)")
    say("a stride that would make the sizes inexpressible is kept at its file value: '(height + 1) / 2'")


def good_depthwise_conv_zero_padding(j):
    t = tensors_by_name(j)
    expect(params(j, "int") == ["batch_size", "channels", "height", "width"], f"int params {params(j, 'int')}")
    expect(t["out"]["shape"] == ["batch_size", "channels", "height - 2", "width - 2"], f"out shape {t['out']['shape']}")
    expect(t["conv_weight"]["shape"] == ["channels", 1, 3, 3], f"weight shape {t['conv_weight']['shape']}")
    expect(j["torch"]["init"] == ["channels", 3, 1, 0], f"init {j['torch']['init']} (kernel, stride kept; padding 0)")
    say("a depthwise convolution: padding 0 is a constant init argument, kernel size and stride kept, "
        "'height - 2' x 'width - 2'")


def good_negative_init_arg(j):
    expect(j["torch"]["init"][:3] == ["in_features", "out_features", -1], f"init {j['torch']['init']}")
    expect("clamp_low" not in params(j, "int"), f"int params {params(j, 'int')}: a negative value is no size")
    expect(tensors_by_name(j)["out"]["shape"] == ["batch_size", "out_features"], "out shape")
    say("a negative constructor argument (-1) stays a literal in init, not a size")


def good_many_init_only_sizes(j):
    t = tensors_by_name(j)
    expect(params(j, "int") == ["batch_size", "in_channels", "height", "width"], f"int params {params(j, 'int')}")
    expect(j["torch"]["init"] == ["in_channels", 8, 3, 2, 3, 2, 4], f"init {j['torch']['init']}")
    expect(t["out"]["shape"] == ["batch_size", 8, "(height + 3) / 2", "(width + 3) / 2"], f"out {t['out']['shape']}")
    say("six constructor-only ints, more subsets than the importer tries: keeping all six is among the tries, "
        "'(height + 3) / 2'")


def good_pool_wide_window(j):
    t = tensors_by_name(j)
    expect(params(j, "int") == ["batch_size", "channels", "height", "width"], f"int params {params(j, 'int')}")
    expect(t["out"]["shape"] == ["batch_size", "channels", "height / 11", "width / 11"], f"out {t['out']['shape']}")
    mins = {p["name"]: p["min"] for p in j["params"]}
    expect(mins["height"] == 11 and mins["width"] == 11, f"mins {mins}: an 11-wide window needs 11 rows")
    say("a window wider than the first probes: sizes that other configurations contradict are swept further, "
        "'height / 11', min 11")


def good_cross_entropy_targets(j):
    t = tensors_by_name(j)
    mins = {p["name"]: p["min"] for p in j["params"]}
    expect(t["scores"]["shape"][1] in ("scores_shape_0", 10), f"scores {t['scores']['shape']}")
    expect(t["labels"]["dtype"] == "i64" and t["labels"]["dist"]["low"] == 0, f"labels {t['labels']}")
    high = t["labels"]["dist"]["high"]
    # Every configuration the task holds has each target below the scores' width.
    for cfg in j["configs"]["seen"] + j["configs"]["unseen"]:
        width = shape_of(t["scores"], cfg)[1]
        top = arena_task.eval_shape(high, cfg)
        expect(top < width, f"on {cfg} labels reach {top}, the scores have {width} classes")
    if "scores_shape_0" in mins:
        expect(mins["scores_shape_0"] == 10, f"min of scores_shape_0 {mins}: the targets reach 9")
    if torch.cuda.is_available():
        # On a GPU the targets over the width hit a device-side assert: the import started again
        # with its probes on the CPU, and says so.
        expect("the model ran on the CPU (on the GPU a probe failed with" in j["_stderr"],
               f"the importer does not say its probes moved to the CPU: {j['_stderr']}")
    say(f"class-index targets stay below the scores' width on every configuration (labels up to {high}, "
        f"min {mins})")


def good_scalar_parameter(j):
    t = tensors_by_name(j)
    expect(j["torch"].get("state", {}).get("scale") == "scale", f"state {j['torch'].get('state')}")
    expect(t["scale"]["shape"] == [1] and t["scale"]["role"] == "input", f"scale {t['scale']}")
    with open(os.path.join(j["_folder"], "README.md")) as f:
        expect("a 0-d parameter: one element" in f.read(), "README notes the 0-d parameter")
    say("a 0-d parameter is bound as state of shape [1] (the oracle check above gives the model its 0-d view)")


GOOD = {f.__name__: f for f in (good_elementwise_two_inputs, good_linear_bias, good_float_init,
                                 good_glu_reductions, good_embedding_lookup, good_tuple_init_default_arg,
                                 good_conv_output, good_affine_input_dim, good_conv_pool_flatten, good_concat_linear,
                                 good_tuple_shape_mask, good_tied_sizes, good_pool_stride_param,
                                 good_depthwise_conv_zero_padding, good_negative_init_arg,
                                 good_many_init_only_sizes, good_pool_wide_window, good_cross_entropy_targets,
                                 good_scalar_parameter)}

BAD = {
    "bad_does_not_import": r"does not import: NameError: name 'undefined_size' is not defined",
    "bad_no_model": r"no class Model",
    "bad_no_get_inputs": r"no get_inputs\(\)",
    "bad_non_tensor_input": r"get_inputs\(\)\[1\] is an int \(3\), not a tensor",
    "bad_nonlinear_size": r"input 'x' \(get_inputs\(\)\[0\]\) dim 1 is not a constant, a product of the int "
                          r"variables and affine sizes of one variable each, or a sum of variables: 28 at "
                          r"\(batch_size=5, dim=7\)",
    # dim (3 in the file) gets the smallest prime though rows (4096) comes first.
    "bad_nonlinear_size_probe_order": r"input 'x' \(get_inputs\(\)\[0\]\) dim 1 is not a constant, .*: 15 at "
                                      r"\(rows=7, dim=5\)",
}


def run_good(case, spec_tool, tmp):
    problem = os.path.join(PROBLEMS, case + ".py")
    out = os.path.join(tmp, "torch2hip")
    r = run_importer(problem, out)
    folder = os.path.join(out, case)
    check_files(problem, folder, r)
    task_json = os.path.join(folder, "task.json")
    check_spec_tool(spec_tool, task_json)
    with open(task_json) as f:
        j = json.load(f)
    check_header(j, case)
    check_configs(j, load_problem(problem))
    check_oracle(j, folder, problem)
    j["_folder"] = folder
    j["_stderr"] = r.stderr
    GOOD[case](j)


def run_bad(case, tmp, pattern):
    problem = os.path.join(PROBLEMS, case + ".py")
    out = os.path.join(tmp, "torch2hip")
    r = run_importer(problem, out)
    lines = r.stderr.strip().splitlines()
    expect(r.returncode == 1, f"exit status {r.returncode} (want 1); stderr: {r.stderr.strip()}")
    expect(len(lines) == 1, f"want one line on stderr, got {lines}")
    prefix = f"{PROG}: {problem}: "
    expect(lines[0].startswith(prefix), f"the message does not start with '{prefix}': {lines[0]}")
    expect(re.search(pattern, lines[0][len(prefix):]), f"the message does not say /{pattern}/: {lines[0]}")
    left = os.listdir(out) if os.path.exists(out) else []
    expect(not left, f"something was written: {left}")
    say(f"refused (exit 1), nothing written: {lines[0]}")


def run_cli(spec_tool, tmp):
    out = os.path.join(tmp, "torch2hip")
    src = os.path.join(PROBLEMS, "good_elementwise_two_inputs.py")
    odd_name = os.path.join(tmp, "My-Problem 1.py")
    shutil.copyfile(src, odd_name)
    r = run_importer(odd_name, out)
    expect(r.returncode == 0, f"import of '{odd_name}': {r.stderr.strip()}")
    folder = os.path.join(out, "my_problem_1")
    expect(os.path.isdir(folder), f"default name: {os.listdir(out)}")
    with open(os.path.join(folder, "task.json")) as f:
        expect(json.load(f)["name"] == "my_problem_1", "task.json name")
    check_spec_tool(spec_tool, os.path.join(folder, "task.json"))
    say("default name from the file name: 'My-Problem 1.py' -> my_problem_1")

    before = {f: open(os.path.join(folder, f), "rb").read() for f in os.listdir(folder)}
    r = run_importer(odd_name, out)
    expect(r.returncode == 1, "a second import into the same folder must be refused")
    expect(re.search(r"my_problem_1 already exists", r.stderr) and r.stderr.startswith(f"{PROG}: {odd_name}: "),
           f"message: {r.stderr.strip()}")
    after = {f: open(os.path.join(folder, f), "rb").read() for f in os.listdir(folder)}
    expect(before == after, "the existing task folder changed")
    expect(sorted(os.listdir(out)) == ["my_problem_1"], f"left-overs in --out: {os.listdir(out)}")
    say("an existing task folder is never overwritten (exit 1, folder unchanged, no left-overs)")

    r = run_importer(src, out, "--name", "custom_task", "--category", "fusion")
    expect(r.returncode == 0, f"--name/--category: {r.stderr.strip()}")
    with open(os.path.join(out, "custom_task", "task.json")) as f:
        j = json.load(f)
    check_header(j, "custom_task", "fusion")
    check_spec_tool(spec_tool, os.path.join(out, "custom_task", "task.json"))

    for flag, value in (("--name", "Bad-Name"), ("--category", "Fusion!")):
        r = run_importer(src, out, flag, value)
        expect(r.returncode == 1 and f"\"{value}\" must be lowercase letters, digits and '_'" in r.stderr,
               f"{flag} {value}: {r.returncode} {r.stderr.strip()}")
    say("invalid --name/--category refused")

    conv = os.path.join(PROBLEMS, "good_conv_output.py")
    r = run_importer(conv, out, "--name", "conv_set", "--set", "length=100", "--set", "batch_size=3", "--keep", "channels")
    expect(r.returncode == 0, f"--set/--keep: {r.stderr.strip()}")
    with open(os.path.join(out, "conv_set", "task.json")) as f:
        j = json.load(f)
    expect(j["configs"]["seen"] == [{"batch_size": 3, "length": 100}], f"seen {j['configs']['seen']}")
    shapes = {t["name"]: t["shape"] for t in j["tensors"]}
    expect(shapes["conv_weight"] == [16, 16, 3] and shapes["out"] == ["batch_size", 16, "length - 2"], f"shapes {shapes}")
    with open(os.path.join(out, "conv_set", "README.md")) as f:
        text = f.read()
    expect("`length` = 100 (the file has 512) (`--set`)" in text and "`channels` is kept at its file value 16" in text,
           "README notes --set and --keep")
    check_spec_tool(spec_tool, os.path.join(out, "conv_set", "task.json"))
    for extra, why in ((["--set", "nosuch=3"], "no module-level variable 'nosuch'"),
                       (["--set", "length=1.5"], "give a value of the same kind"),
                       (["--set", "length"], "not NAME=<Python literal>"),
                       (["--keep", "nosuch"], "--keep nosuch: no int variable of that name")):
        r = run_importer(conv, out, "--name", "conv_bad", *extra)
        expect(r.returncode == 1 and why in r.stderr, f"{extra}: {r.returncode} {r.stderr.strip()}")
    expect(not os.path.exists(os.path.join(out, "conv_bad")), "a refused --set/--keep wrote a folder")
    say("--set gives the seen sizes (noted in the README), --keep keeps a variable as a literal; bad ones refused")
    expect(os.access(IMPORTER, os.X_OK), f"{IMPORTER} is not executable")
    with open(IMPORTER) as f:
        expect(f.readline().startswith("#!/usr/bin/env python3"), "launcher shebang")
    say("the launcher is an executable Python script")


def run_probe_device(tmp):
    """Probes run on the GPU when PyTorch sees one, and the importer says where they ran;
    ARENA_IMPORT_PROBE_DEVICE=cpu keeps them on the CPU."""
    src = os.path.join(PROBLEMS, "good_conv_output.py")
    for env, want in (({}, "the GPU (" if torch.cuda.is_available() else "the CPU"),
                      ({"ARENA_IMPORT_PROBE_DEVICE": "cpu"}, "the CPU")):
        out = os.path.join(tmp, "torch2hip" + str(len(env)))
        r = subprocess.run([sys.executable, IMPORTER, src, "--out", out], capture_output=True, text=True,
                           timeout=900, env={**os.environ, **env})
        expect(r.returncode == 0, f"import with {env or 'no setting'}: {r.stderr.strip()}")
        line = next((x for x in r.stderr.splitlines() if "for its probes" in x), "")
        expect(f"the model ran on {want}" in line, f"with {env or 'no setting'} the importer says '{line}', "
                                                   f"want 'the model ran on {want}...'")
        say(f"{env or 'no setting'}: {line.split(': ', 2)[-1]}")


def run_batch(tmp):
    """--batch over a folder: counts, the report's refusals, --jobs, a per-problem time limit
    that names where the probes ran, and --stop-after-s."""
    folder = os.path.join(tmp, "level0")
    os.makedirs(folder)
    shutil.copyfile(os.path.join(PROBLEMS, "good_elementwise_two_inputs.py"), os.path.join(folder, "1_Good.py"))
    shutil.copyfile(os.path.join(PROBLEMS, "bad_no_model.py"), os.path.join(folder, "2_Bad.py"))
    where = "the GPU (" if torch.cuda.is_available() else "the CPU"

    def batch(out, *extra):
        r = subprocess.run([sys.executable, IMPORTER, "--batch", folder, "--out", out, *extra],
                           capture_output=True, text=True, timeout=900)
        report = os.path.join(out, "IMPORT_REPORT.md")
        return r, (open(report).read() if os.path.isfile(report) else "")

    r, report = batch(os.path.join(tmp, "a"), "--jobs", "2", "--timeout-s", "600")
    expect(r.returncode == 0, f"batch exit status {r.returncode}: {r.stdout} {r.stderr}")
    expect(f"{folder}: 1 of 2 imported, 1 refused" in r.stdout, f"batch summary: {r.stdout}")
    expect("| 2_Bad.py | no class Model |" in report and f"probes on {where}" in report, f"report: {report}")
    expect(os.path.isfile(os.path.join(tmp, "a", "1_good", "task.json")), "1_Good.py was not written")
    say("--batch --jobs 2: 1 of 2 imported, the refusal and where the probes ran in IMPORT_REPORT.md")

    r, report = batch(os.path.join(tmp, "b"), "--timeout-s", "0.01")
    expect(f"took longer than 0.01 s (probing the model on {where}" in report, f"report: {report}")
    say("a problem over --timeout-s is refused, saying where its probes ran")

    r, report = batch(os.path.join(tmp, "c"), "--stop-after-s", "0", "--min-imported", "1")
    expect(r.returncode == 1 and f"{folder}: 0 of 2 imported, 0 refused, 2 not attempted" in r.stdout,
           f"--stop-after-s 0: exit {r.returncode}, {r.stdout}")
    expect(report.count("not attempted: the batch's --stop-after-s time had passed") == 2, f"report: {report}")
    say("--stop-after-s 0: nothing attempted, both listed, and --min-imported fails the batch")


THREADS_PROBLEM = """import os
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x


size = 4


def get_inputs():
    raise RuntimeError(f"threads={torch.get_num_threads()} env={os.environ.get('ARENA_IMPORT_THREADS')} "
                       f"omp={os.environ.get('OMP_NUM_THREADS')} size={size}")
"""


def run_threads(tmp):
    """Each import of a batch runs PyTorch on its share of the cores (cores // jobs threads), as
    the import process itself sees it; a single import takes ARENA_IMPORT_THREADS."""
    sys.path.insert(0, PYDIR)
    from arena_kernelbench.resources import threads_per_job
    folder = os.path.join(tmp, "threads")
    os.makedirs(folder)
    with open(os.path.join(folder, "1_Threads.py"), "w") as f:
        f.write(THREADS_PROBLEM)
    cores = os.cpu_count() or 1
    for jobs in sorted({1, max(1, cores // 2), cores}):
        out = os.path.join(tmp, f"out{jobs}")
        r = subprocess.run([sys.executable, IMPORTER, "--batch", folder, "--out", out, "--jobs", str(jobs)],
                           capture_output=True, text=True, timeout=900)
        want = threads_per_job(jobs, cores)
        expect(f"{want} CPU thread(s) each" in r.stdout, f"--jobs {jobs}: the batch says {r.stdout}")
        with open(os.path.join(out, "IMPORT_REPORT.md")) as f:
            report = f.read()
        expect(f"threads={want} env={want} omp={want}" in report,
               f"--jobs {jobs} on {cores} cores: the import did not run on {want} thread(s): {report}")
        say(f"--jobs {jobs} on {cores} cores: the import's PyTorch ran on {want} CPU thread(s) (OMP_NUM_THREADS too)")
    src = os.path.join(PROBLEMS, "good_elementwise_two_inputs.py")
    r = subprocess.run([sys.executable, IMPORTER, src, "--out", os.path.join(tmp, "single")], capture_output=True,
                       text=True, timeout=900, env={**os.environ, "ARENA_IMPORT_THREADS": "1"})
    expect(r.returncode == 0 and "PyTorch on 1 CPU thread(s)" in r.stderr, f"ARENA_IMPORT_THREADS=1: {r.stderr}")
    r = subprocess.run([sys.executable, IMPORTER, src, "--out", os.path.join(tmp, "bad")], capture_output=True,
                       text=True, timeout=900, env={**os.environ, "ARENA_IMPORT_THREADS": "many"})
    expect(r.returncode == 1 and "ARENA_IMPORT_THREADS='many': want a positive integer" in r.stderr,
           f"ARENA_IMPORT_THREADS=many: {r.returncode} {r.stderr}")
    say("a single import: ARENA_IMPORT_THREADS=1 gives 1 thread, a bad value is refused saying why")


def run_probe_limits(tmp):
    """A probe whose forward() would make a huge tensor, or do a huge matrix product, is refused
    from its shapes on PyTorch's meta device before it runs; a small one runs."""
    sys.path.insert(0, PYDIR)
    from arena_kernelbench import probe as kb_probe
    from arena_kernelbench.common import ProbeError
    path = os.path.join(tmp, "outer_and_matmul.py")
    with open(path, "w") as f:
        f.write("import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
                "    def forward(self, x, y):\n        return (x.t() * x).sum() + (y @ y).sum()\n\n\n"
                "n = 8\nm = 8\n\n\ndef get_inputs():\n    return [torch.randn(1, n), torch.randn(m, m)]\n")
    module = kb_probe.load_problem(path)
    run = kb_probe.run_model(module, {"n": 64, "m": 64})
    expect(len(run.outputs) == 1 and run.outputs[0].numel() == 1, "the small probe ran")
    for values, what in (({"n": 8000, "m": 8}, "makes a tensor of 64000000 elements"),
                         ({"n": 8, "m": 4096}, "floating-point operations")):
        try:
            kb_probe.run_model(module, values)
            raise Failure(f"{values}: the probe ran")
        except ProbeError as e:
            expect(what in str(e) and "the probes' limit" in str(e), f"{values}: {e}")
            say(f"{values}: refused before it ran: {str(e)[:110]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spec", required=True, help="the arena-spec tool")
    ap.add_argument("--case", action="append", help="run only these cases (default: all)")
    ap.add_argument("--alt-python", default="", help="an interpreter to run this script with when this one lacks torch")
    args = ap.parse_args()
    problems = sorted(os.path.splitext(f)[0] for f in os.listdir(PROBLEMS) if f.endswith(".py"))
    unknown = [p for p in problems if p not in GOOD and p not in BAD]
    if unknown:
        print(f"FAILED: problem files without expectations: {unknown}")
        return 1
    extra = ["cli", "probe_device", "batch", "threads", "probe_limits"]
    cases = args.case or problems + extra
    failed = []
    for case in cases:
        print(f"{case}:", flush=True)
        with tempfile.TemporaryDirectory(prefix="arena-importer-test-") as tmp:
            try:
                if case in GOOD:
                    run_good(case, args.spec, tmp)
                elif case in BAD:
                    run_bad(case, tmp, BAD[case])
                elif case == "cli":
                    run_cli(args.spec, tmp)
                elif case == "probe_device":
                    run_probe_device(tmp)
                elif case == "batch":
                    run_batch(tmp)
                elif case == "threads":
                    run_threads(tmp)
                elif case == "probe_limits":
                    run_probe_limits(tmp)
                else:
                    raise Failure(f"unknown case (cases: {', '.join(problems + extra)})")
            except Failure as e:
                print(f"FAILED: {case}: {e}", flush=True)
                failed.append(case)
            except Exception:  # a bug here or an unexpected importer output: still a failed case
                traceback.print_exc()
                print(f"FAILED: {case}: unexpected exception (above)", flush=True)
                failed.append(case)
    if failed:
        print(f"FAILED: {len(failed)} of {len(cases)} case(s): {', '.join(failed)}")
        return 1
    print(f"passed: {len(cases)} case(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
