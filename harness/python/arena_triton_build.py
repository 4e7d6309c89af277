#!/usr/bin/env python3
"""The trusted compile of a Triton module's kernels (docs/DESIGN.md, "Process model": device
code of Python kernels). The recorder, which runs the candidate's Python, says how Triton
compiled each kernel a launch ran (a build: the @triton.jit function's name and file, its
signature, constexprs and specialization, the compile options, the target), and sends the
image Triton built. This process runs none of the module's code: it reads the checked source
with ast, defines only its top-level @triton.jit functions, its imports of allowed modules and
the constants those use, compiles each build with triton.compile, and reports the image and
its SHA-256. The judge replays only these images, and fails a launch whose sent image differs.

A production baseline's package kernels (task.json "package") are compiled from the installed
package's own source, imported here like Triton itself: trusted code.

    arena_triton_build.py --source MODULE.py --builds builds.json --out DIR [--task task.json]

builds.json: [{"build": <what describe() returned in the recorder>, "sent": <file of the
image the recorder sent>}, ...]. DIR/<i>.bin gets each trusted image, DIR/result.json one
entry per build: {kernel, sha256, sent_sha256, same} or {kernel, error}."""
import argparse
import ast
import hashlib
import json
import os
import sys
import types

import arena_check_triton

# Compile options a launch may choose (num_warps, num_stages, ... of its autotune config).
# Every other option (ir_override, extern_libs, ptx_options, instrumentation) comes from this
# process's own defaults: those can put device code into the image that the source does not hold.
LAUNCH_OPTIONS = ("num_warps", "num_ctas", "num_stages", "maxnreg", "enable_fp_fusion", "enable_reflect_ftz",
                  "launch_cooperative_grid", "launch_pdl", "default_dot_input_precision",
                  "max_num_imprecise_acc_default", "debug", "sanitize_overflow")


class BuildError(Exception):
    pass


def pin_compile_settings():
    """The Triton settings both sides of the check compile with (the recorder before it loads a
    module, this process before it builds). Line info is off: with it, ptxas writes into the
    image each source file's path and the modification time and size it finds on disk when it
    compiles, and Triton's cache, keyed by content alone, hands out an image with the time of
    whenever it was first built; two builds of the same source then differ (a package
    reinstalled, a module copied again). Line info carries no code: the kernels' .text is the
    same with it or without (tests/python/test_triton_image_determinism.py). The setting goes
    through the environment, so Triton's cache key holds it and no image cached with line info
    is handed out."""
    import triton
    triton.knobs.compilation.disable_line_info = True


def _unpinned_settings(meta):
    """The cache-relevant Triton settings a compile used that differ from pin_compile_settings
    (for the message when the images differ)."""
    out = {k: v for k, v in meta.items() if k.startswith("TRITON_") and k != "TRITON_DISABLE_LINE_INFO"}
    if str(meta.get("TRITON_DISABLE_LINE_INFO", "")).lower() not in ("1", "true", "on", "yes"):
        out["TRITON_DISABLE_LINE_INFO"] = meta.get("TRITON_DISABLE_LINE_INFO", "unset (line info on)")
    return out


# ---- the recorder's side: how Triton compiled a loaded kernel --------------------------------

def _encode(value):
    """A constexpr value as JSON: plain values as they are, a dtype and a @triton.jit function
    by name."""
    import triton.language as tl
    from triton.runtime.jit import JITFunction
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, tl.dtype):
        return {"dtype": str(value)}
    if isinstance(value, JITFunction):
        return {"jit": value.__qualname__, "module": value.__module__}
    if isinstance(value, tl.constexpr):
        return {"constexpr": _encode(value.value)}
    if isinstance(value, (tuple, list)):
        return {"tuple": [_encode(v) for v in value]}
    raise BuildError(f"a constexpr of type {type(value).__name__} cannot be described")


def describe(compiled):
    """How Triton built a CompiledKernel: what the trusted compile needs to build it again."""
    src, meta = compiled.src, compiled.metadata._asdict()
    fn = src.fn
    target = meta["target"]
    return {
        "kernel": fn.__name__, "qualname": fn.__qualname__, "module": fn.__module__,
        "file": os.path.realpath(fn.fn.__code__.co_filename),
        "path": fn.fn.__code__.co_filename,  # as the module was loaded: Triton's line info names it
        "signature": dict(src.signature),
        "constexprs": [[list(k), _encode(v)] for k, v in sorted(src.constants.items())],
        "attrs": [[list(k), [list(a) for a in v]] for k, v in sorted(src.attrs.items())],
        "options": {k: meta[k] for k in LAUNCH_OPTIONS if k in meta},
        # What the recorder's compile used beyond them, for the message when the images differ.
        "other_options": {**{k: meta[k] for k in ("ir_override", "extern_libs", "ptx_options", "instrumentation_mode")
                             if meta.get(k)}, **_unpinned_settings(meta)},
        "target": [target.backend, target.arch, target.warp_size],
    }


# ---- the trusted side -------------------------------------------------------------------------

def _decode(value, namespace):
    import triton.language as tl
    from triton.runtime.jit import JITFunction
    if not isinstance(value, dict):
        return value
    if "dtype" in value:
        return tl.str_to_ty(value["dtype"], None) if value["dtype"].startswith("*") else tl.dtype(value["dtype"])
    if "jit" in value:
        fn = namespace.get(value["jit"])
        if not isinstance(fn, JITFunction):
            raise BuildError(f"the constexpr names {value['jit']}, which is not a top-level @triton.jit function of "
                             f"the module")
        return fn
    if "constexpr" in value:
        return tl.constexpr(_decode(value["constexpr"], namespace))
    if "tuple" in value:
        return tuple(_decode(v, namespace) for v in value["tuple"])
    raise BuildError(f"unknown constexpr description {value}")


class _Constant(ast.NodeVisitor):
    """Evaluates a module-level constant's expression over trusted values only: literals,
    names defined before it, public attributes of those, arithmetic, tuples, and calls of
    tl.constexpr, int, float and bool. Anything else is not a constant (None)."""

    def __init__(self, namespace, calls):
        self.ns, self.calls = namespace, calls

    def value(self, node):
        import operator
        ops = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
               ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
               ast.LShift: operator.lshift, ast.RShift: operator.rshift, ast.BitOr: operator.or_,
               ast.BitAnd: operator.and_, ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_}
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in self.ns:
                raise KeyError(node.id)
            return self.ns[node.id]
        if isinstance(node, ast.Attribute) and not node.attr.startswith("_"):
            base = self.value(node.value)
            if not isinstance(base, types.ModuleType):  # an allowed module's public names only
                raise KeyError(node.attr)
            return getattr(base, node.attr)
        if isinstance(node, ast.BinOp) and type(node.op) in ops:
            return ops[type(node.op)](self.value(node.left), self.value(node.right))
        if isinstance(node, ast.UnaryOp) and type(node.op) in ops:
            return ops[type(node.op)](self.value(node.operand))
        if isinstance(node, ast.Tuple):
            return tuple(self.value(e) for e in node.elts)
        if isinstance(node, ast.Call) and not node.keywords:
            fn = self.value(node.func)
            if any(fn is c for c in self.calls):
                return fn(*[self.value(a) for a in node.args])
        raise KeyError(ast.dump(node)[:60])


def _jit_decorator(node, aliases):
    """The @triton.jit decorator of a function definition (None if it has none)."""
    for d in node.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        name = arena_check_triton.dotted(target)
        if not name:
            continue
        head, _, rest = name.partition(".")
        full = aliases.get(head, head) + ("." + rest if rest else "")
        if full.split(".")[-1] == "jit":
            return d
    return None


def trusted_module(path, module_name, allowed=()):
    """A module object with the checked source's top-level @triton.jit functions, defined at
    their own lines of `path` (Triton reads their source and line numbers from the file), its
    imports of allowed modules, and the constants they use; nothing else of the file runs."""
    import triton
    import triton.language as tl
    tree = arena_check_triton.parse(path)
    aliases = arena_check_triton.aliases_of(tree)
    module = types.ModuleType(module_name)
    module.__file__ = path
    ns = module.__dict__
    sys.modules[module_name] = module  # Triton's JIT looks kernels' modules up by name
    evaluator = _Constant(ns, (tl.constexpr, triton.language.core.constexpr, int, float, bool))
    ns["__arena_trusted_jit"] = triton.jit
    errors = module.arena_build_errors = {}
    # Names the kernels and the constants use: an import that binds none of them is left out
    # (most modules import torch for launch() alone, and importing it is most of this process's time).
    used = {n.id for node in tree.body
            if (isinstance(node, ast.FunctionDef) and _jit_decorator(node, aliases) is not None)
            or isinstance(node, (ast.Assign, ast.AnnAssign))
            for n in ast.walk(node) if isinstance(n, ast.Name)}
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            bound = {a.asname or a.name.split(".")[0] for a in node.names}
            if bound & used and (node.level == 0 if isinstance(node, ast.ImportFrom) else True):
                if all(n.split(".")[0] in arena_check_triton.ALLOWED_IMPORTS
                       or arena_check_triton._allowed_module(n, allowed) for n in names):
                    exec(compile(ast.Module([node], []), path, "exec"), ns)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if all(isinstance(t, ast.Name) for t in targets):
                try:
                    value = evaluator.value(node.value)
                except Exception:
                    continue  # not a constant: a kernel that uses it does not compile here, named
                for t in targets:
                    ns[t.id] = value
        elif isinstance(node, ast.FunctionDef):
            jit = _jit_decorator(node, aliases)
            if jit is None:
                continue
            try:
                _define(node, jit, path, ns, evaluator)
            except BuildError as e:  # that kernel's failure (and its callers'), named when asked for
                errors[node.name] = str(e)
                ns.pop(node.name, None)
    return module


def _define(node, jit, path, ns, evaluator):
    """Defines one @triton.jit function in `ns` from its definition in the source."""
    # triton.jit with the source's own literal arguments (noinline, do_not_specialize),
    # placed on the first decorator's line so that the function starts where it did.
    first = node.decorator_list[0]
    decorator = ast.Name("__arena_trusted_jit", ast.Load())
    if isinstance(jit, ast.Call):
        keywords = []
        for k in jit.keywords:
            try:
                ast.literal_eval(k.value)
                keywords.append(ast.keyword(k.arg, k.value))
            except ValueError:
                raise BuildError(f"{path}:{jit.lineno}: @jit argument {k.arg} is not a literal")
        decorator = ast.Call(decorator, [], keywords)
    ast.copy_location(decorator, first)
    ast.fix_missing_locations(decorator)
    # Defaults and annotations are evaluated when a def runs: only constants, evaluated
    # here (Triton reads the body from the file; the function object gives the signature).
    def constant(expr, what):
        if expr is None:
            return None
        try:
            value = evaluator.value(expr)
        except Exception:
            raise BuildError(f"{path}:{expr.lineno}: the {what} in {node.name}'s signature is not a "
                             f"constant the trusted compile can evaluate")
        name = f"__arena_value_{len(ns)}"
        ns[name] = value
        return ast.copy_location(ast.Name(name, ast.Load()), expr)
    a = node.args
    for arg in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]:
        arg.annotation = constant(arg.annotation, f"annotation of {arg.arg}")
    a.defaults = [constant(d, "default value") for d in a.defaults]
    a.kw_defaults = [constant(d, "default value") for d in a.kw_defaults]
    definition = ast.FunctionDef(node.name, a, node.body, [decorator], constant(node.returns, "return annotation"),
                                 getattr(node, "type_comment", None), **({"type_params": []}
                                                                        if sys.version_info >= (3, 12) else {}))
    ast.copy_location(definition, node)
    definition.end_lineno, definition.end_col_offset = node.end_lineno, node.end_col_offset
    exec(compile(ast.Module([definition], []), path, "exec"), ns)


def _package_kernel(build, allowed):
    """A package kernel by module and name, from the installed package (trusted code)."""
    import importlib
    from triton.runtime.jit import JITFunction
    module = build["module"]
    if not any(module == m.split(".")[0] or module.startswith(m.split(".")[0] + ".") for m in allowed):
        raise BuildError(f"kernel {build['kernel']} comes from module {module}, which is neither the checked module "
                         f"nor one of the task's package modules ({', '.join(allowed) or 'none'})")
    m = importlib.import_module(module)
    if os.path.realpath(m.__file__) != build["file"]:
        raise BuildError(f"kernel {build['kernel']}: module {module} is installed at {m.__file__}, not at "
                         f"{build['file']} where the recorder found it")
    fn = getattr(m, build["qualname"], None)
    while fn is not None and not isinstance(fn, JITFunction):
        fn = getattr(fn, "fn", None)  # under @triton.autotune or @triton.heuristics
    if fn is None:
        raise BuildError(f"kernel {build['kernel']} is not a @triton.jit function of {module}")
    return fn


class Builder:
    def __init__(self, source, allowed=()):
        pin_compile_settings()
        self.source = os.path.realpath(source)
        self.allowed = tuple(allowed)
        self.modules = {}

    def function(self, build):
        from triton.runtime.jit import JITFunction
        if build["file"] != self.source:
            return _package_kernel(build, self.allowed)
        name = build["module"]
        path = build.get("path", self.source)
        if os.path.realpath(path) != self.source:
            raise BuildError(f"kernel {build['kernel']}: {path} is not {self.source}")
        if not name.startswith("arena_triton_"):  # the recorder's name for the checked module
            raise BuildError(f"kernel {build['kernel']}: module name {name} is not the recorder's name for "
                             f"{self.source}")
        if (name, path) not in self.modules:
            self.modules[(name, path)] = trusted_module(path, name, self.allowed)
        module = self.modules[(name, path)]
        if build["qualname"] in module.arena_build_errors:
            raise BuildError(module.arena_build_errors[build["qualname"]])
        fn = module.__dict__.get(build["qualname"])
        if not isinstance(fn, JITFunction):
            raise BuildError(f"kernel {build['kernel']} is not a top-level @triton.jit function of {self.source} "
                             f"(only those are compiled from the checked source)")
        return fn

    def build(self, build):
        """The image of one build, compiled here."""
        import triton
        from triton.backends.compiler import GPUTarget
        from triton.compiler import ASTSource
        fn = self.function(build)
        namespace = fn.__globals__
        constexprs = {tuple(k): _decode(v, namespace) for k, v in build["constexprs"]}
        attrs = {tuple(k): [tuple(a) for a in v] for k, v in build["attrs"]}
        options = {k: v for k, v in build["options"].items() if k in LAUNCH_OPTIONS}
        backend, arch, warp_size = build["target"]
        if backend != "cuda":
            raise BuildError(f"kernel {build['kernel']}: target {backend} is not built here (cuda only)")
        src = ASTSource(fn, dict(build["signature"]), constexprs, attrs)
        compiled = triton.compile(src, target=GPUTarget("cuda", int(arch), int(warp_size)), options=options)
        if compiled.metadata.name != build["kernel"]:
            raise BuildError(f"kernel {build['kernel']}: the trusted compile built {compiled.metadata.name}")
        return bytes(compiled.kernel)


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def run(source, builds, out, allowed=()):
    builder = Builder(source, allowed)
    results = []
    for i, item in enumerate(builds):
        build = item["build"]
        entry = {"kernel": build.get("kernel", "?")}
        try:
            image = builder.build(build)
            with open(os.path.join(out, f"{i}.bin"), "wb") as f:
                f.write(image)
            entry["sha256"] = sha256(image)
            if item.get("sent"):
                with open(item["sent"], "rb") as f:
                    sent = f.read()
                entry["sent_sha256"] = sha256(sent)
                entry["same"] = sent == image
        except Exception as e:  # one build's failure is that kernel's, named
            entry["error"] = f"{type(e).__name__}: {e}"
        results.append(entry)
    return results


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--source", required=True, help="the checked module")
    p.add_argument("--builds", required=True, help="JSON list of builds")
    p.add_argument("--out", required=True, help="folder for the images and result.json")
    p.add_argument("--task", default=None, help="task.json, for its package's modules")
    a = p.parse_args(argv)
    allowed = []
    if a.task:
        with open(a.task) as f:
            allowed = json.load(f).get("package", {}).get("modules", [])
    with open(a.builds) as f:
        builds = json.load(f)
    os.makedirs(a.out, exist_ok=True)
    results = run(a.source, builds, a.out, allowed)
    with open(os.path.join(a.out, "result.json.partial"), "w") as f:
        json.dump(results, f, indent=1)
    os.replace(os.path.join(a.out, "result.json.partial"), os.path.join(a.out, "result.json"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
