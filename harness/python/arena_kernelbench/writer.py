"""The task folder: task.json (the spec), README.md (the statement and the maintainer's review
list), reference.py (the problem file, verbatim); written to a staging folder, then moved into
place at once."""
import contextlib
import inspect
import json
import os
import re
import shutil
import tempfile

from . import probe
from .common import Refusal, short
from .sizes import Size, prod_entry

DTYPE_SIZE = {"f32": 4, "f16": 2, "bf16": 2, "f64": 8, "i32": 4, "i64": 8, "i8": 1, "u8": 1}
TOLERANCE = {"f32": {"atol": 1e-5, "rtol": 1e-5}, "f16": {"atol": 1e-3, "rtol": 1e-2},
             "bf16": {"atol": 1e-3, "rtol": 1e-2}, "f64": {"atol": 1e-9, "rtol": 1e-9}}


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
            if len(t.runs[0].shape) == 0:
                what += ", a 0-d parameter: one element"
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
    for pseudo, (tup, i) in probe.TUPLE_VARS.items():
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


def write_files(folder, a, spec, path, review):
    """task.json and README.md into folder."""
    with open(os.path.join(folder, "task.json"), "w") as f:
        f.write(compact_json(spec) + "\n")
    with open(os.path.join(folder, "README.md"), "w") as f:
        f.write(build_readme(a, spec, path, review))


@contextlib.contextmanager
def staging(path, name):
    """A temporary task folder <name>/ holding reference.py (the problem file, verbatim); removed
    afterwards, published or not."""
    tmp_root = tempfile.mkdtemp(prefix="arena-import-")
    try:
        work = os.path.join(tmp_root, name)
        os.mkdir(work)
        shutil.copyfile(path, os.path.join(work, "reference.py"))
        yield work
    finally:
        shutil.rmtree(tmp_root, ignore_errors=True)


def publish(work, out_dir, target):
    """Moves the staged folder's files to target at once (a rename within out_dir): a reader never
    sees a half-written task, and an existing target is never overwritten."""
    os.makedirs(out_dir, exist_ok=True)
    if os.path.exists(target):
        raise Refusal(f"{target} already exists (choose another --name or --out; nothing is overwritten)")
    partial = tempfile.mkdtemp(prefix=f".{os.path.basename(target)}.partial-", dir=out_dir)
    try:
        for f in os.listdir(work):
            shutil.copyfile(os.path.join(work, f), os.path.join(partial, f))
        os.chmod(partial, 0o755)
        os.rename(partial, target)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
