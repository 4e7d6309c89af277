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
`input_shape = (32768,)`, as a variable `input_shape_0`). The model runs on the GPU when PyTorch
sees one (ARENA_IMPORT_PROBE_DEVICE=cpu keeps it on the CPU), else on the CPU, with small
distinct primes substituted for them, the smallest for the variables with the smallest file
values (three sets, plus one set of even sizes as a check; larger primes when the model fails
on small ones); every tensor dimension (inputs, state_dict entries,
outputs) is read off as a constant or a product of variables from the prime factorization.
Where that fails, each variable is swept over 32 more values with the others fixed, and a
dimension may be a product of one factor per variable, each a power or an affine size
(a * v + b) / s (a convolution's or a pool's output: `height - 2`, `(height - 4) / 2`), or a
sum of variables (a concatenation: `input_size + hidden_size`). Variables no size depends on (a
reduction axis), or that the model cannot vary independently (a group count, a size fixed by
a tuple computed at import, a stride that makes a size inexpressible), are kept at their file
values as literals; variables the model needs equal (equal in the file) may be tied into one.
The sizes read off the probes must also hold on other configurations (among them the smallest
unseen ones the task will hold) and at every variable's minimum. A constructor argument
with the same value on every probe (a padding of 0, a clamp bound of -1) is a constant. Anything else is refused with
the file and what is wrong, on one line; nothing is written. A bool input becomes a u8 tensor
of 0 and 1.

--set NAME=VALUE gives a module-level variable another value (a Python literal of the same
kind) before the import, so the seen configuration can be smaller than the file's (the README
says so); --keep NAME keeps an int variable at its value, a literal instead of a param.

Before writing, the task is loaded by the harness itself (arena_torch) and its float64 oracle
runs on the smallest configurations.

Probes stay cheap: before a probe runs for real, forward() runs on PyTorch's meta device (shapes
only), and a probe that would make a tensor over 2^25 elements (and 8 times its largest input)
or do over 2^35 floating-point operations in convolutions and matrix products is a failed probe
(sizes that multiply, such as a stride times a length, are no shape the task can hold anyway).
ARENA_IMPORT_THREADS limits PyTorch's CPU threads (a batch gives each import cores // jobs),
and cuDNN does not benchmark the probes' ever-new sizes. A GPU error that leaves the process's
CUDA context unusable (a device-side assert: an index at or over its bound at probe sizes)
starts the import again with its probes on the CPU, which the log says.
A 0-d state entry (a scalar nn.Parameter) becomes a tensor of shape [1].

This file is the command line; the work is done by the package arena_kernelbench: probe (load
the file, run the model), sizes and shapes (what the runs show), configs (minimums, unseen
configurations, fuzz domain), writer (the task folder) and oracle_check.
"""
import argparse
import ast
import math
import os
import re
import sys

from arena_kernelbench.common import DeviceFault, Refusal, first_line, sanitize

PROG = "arena-import-kernelbench"
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_OUT = os.path.join(REPO, "tasks", "torch2hip")


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
    """Returns the task folder written and its spec; raises Refusal."""
    # The parts that run the model need PyTorch, which main() has imported by now.
    from arena_kernelbench import writer
    from arena_kernelbench.configs import MAX_ELEMS, make_configs, max_numel
    from arena_kernelbench.oracle_check import harness_check
    from arena_kernelbench.probe import load_problem, returned_names, size_variables
    from arena_kernelbench.shapes import analyze

    out_dir = os.path.abspath(out_dir)
    target = os.path.join(out_dir, name)
    if os.path.exists(target):
        raise Refusal(f"{target} already exists (choose another --name or --out; nothing is overwritten)")
    from arena_kernelbench.probe import probe_device_name
    from arena_kernelbench.resources import apply_limits
    threads = apply_limits()
    log(f"the model ran on {probe_device_name()} for its probes, PyTorch on {threads} CPU thread(s)")
    module = load_problem(path)
    changed = apply_settings(module, settings)
    int_vars, float_vars, in_inputs, in_init = size_variables(module)
    for k in keep:
        if k not in int_vars:
            raise Refusal(f"--keep {k}: no int variable of that name is read by get_inputs()/get_init_inputs() "
                          f"(they are: {', '.join(int_vars) or 'none'})")
    if not int_vars:
        raise Refusal("get_inputs()/get_init_inputs() use no module-level int variables: fixed shapes give "
                      "no unseen configurations")
    get_init = getattr(module, "get_init_inputs", None)
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
        n = t.numel().value(seen)
        if n > MAX_ELEMS:
            notes.append(f"the seen configuration (the file's sizes) gives tensor '{t.name}' {n} elements, more "
                         f"than 2^26: kept, but consider smaller sizes")
            log(f"warning: seen configuration: tensor '{t.name}' has {n} elements (> 2^26); kept as in the file")
    spec = writer.build_spec(a, name, category, path, seen, mins, unseen, fuzz)

    with writer.staging(path, name) as work:
        def write():
            writer.write_files(work, a, spec, path, writer.review_items(a, spec, notes))

        write()
        by_size = sorted(spec["configs"]["seen"] + unseen, key=lambda c: (max_numel(a, c), math.prod(c.values())))
        checks = by_size[:2] + [c for c in by_size[2:] if max_numel(a, c) <= 4096]
        err, check_notes = harness_check(work, spec, checks)
        if err is not None:
            spec["torch"]["oracle"] = "native"  # an op without float64 support: run in the tensors' dtypes
            write()
            err2, check_notes = harness_check(work, spec, checks)
            if err2 is not None:
                raise Refusal(err)
            notes.append("the model fails in float64, so the oracle runs in the tensors' own dtypes "
                         "(torch.oracle \"native\"): tolerances must allow for that")
        notes += check_notes
        for n in check_notes:
            log("warning: " + n)
        write()
        writer.publish(work, out_dir, target)
    return target, spec


def again_on_cpu(fault, argv):
    """The import once more, in a new process with its probes on the CPU (common.DeviceFault);
    its output and exit status are this import's."""
    import subprocess
    from arena_kernelbench.probe import CPU_BECAUSE_ENV
    env = {**os.environ, "ARENA_IMPORT_PROBE_DEVICE": "cpu",
           CPU_BECAUSE_ENV: f"on the GPU a probe failed with {fault}, which leaves the GPU unusable to the process"}
    return subprocess.run([sys.executable, os.path.join(REPO, "harness", "tools", PROG)] + list(argv),
                          env=env).returncode


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

    try:
        import torch  # noqa: F401
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
    except DeviceFault as e:
        return again_on_cpu(e, sys.argv[1:] if argv is None else argv)
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
