#!/usr/bin/env python3
"""The compile gate of a Triton candidate: the module parses, defines launch(), imports only
what a Triton kernel needs, and names none of the calls the rules forbid (streams,
synchronization, vendor libraries, native code, processes). What it does at run time is
checked again when it runs (only Triton kernels may compute: arena_triton.py). On success
the module is copied to <output>.

A task whose baseline is a production kernel names its package's modules (task.json
"package"); `--allow-import MODULE` lets the module import each, and the @triton.jit kernels
those modules define (read from their installed source, never imported here) join the kernels
its launches may run.

    arena_check_triton.py <kernel.py> <output.py> [--what LABEL] [--result result.json]
                          [--allow-import MODULE]..."""
import argparse
import ast
import json
import os
import re
import shutil
import sys
import time

import arena_package

ALLOWED_IMPORTS = {"torch", "triton", "math", "functools", "typing", "itertools", "dataclasses", "enum", "struct"}
FORBIDDEN_NAMES = {
    "torch.cuda.Stream": "stream creation", "torch.cuda.synchronize": "device synchronization",
    "torch.cuda.set_stream": "stream switching", "torch.cuda.stream": "stream switching",
    "torch.cuda.StreamContext": "stream switching", "torch.cuda.default_stream": "stream switching",
    "torch.cuda.ExternalStream": "stream switching",
    "torch.cuda.graph": "graph capture", "torch.cuda.CUDAGraph": "graph capture",
    "torch.ops": "calls into registered native operators", "torch.library": "native operators",
    "torch.utils.cpp_extension": "native code", "torch.compile": "a second compiler",
    "torch.backends": "library settings", "torch._C": "PyTorch internals", "torch.cuda.Event": "events",
    "torch.cuda.memory": "allocator control", "torch.cuda.empty_cache": "allocator control",
    "__import__": "dynamic imports", "importlib": "dynamic imports", "exec": "dynamic code", "eval": "dynamic code",
    "compile": "dynamic code", "open": "file access", "input": "interaction", "breakpoint": "debugger hooks",
    "exit": "ending the process", "quit": "ending the process", "globals": "module state", "locals": "frame state",
    "vars": "introspection", "setattr": "changing attributes at run time", "delattr": "changing attributes at run time",
    "__builtins__": "introspection",
}
# Names that only introspection and monkeypatching need.
DUNDER_ALLOWED = {"__init__", "__name__", "__doc__"}
LIBRARIES = {"torch", "triton"}


def dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _root(node):
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.value if not isinstance(node, ast.Call) else node.func
    return node.id if isinstance(node, ast.Name) else None


# Modules a library exposes as attributes (torch.os, torch.serialization.os, triton.runtime.build
# .subprocess, ...): reaching one that way is importing it.
HIDDEN_MODULES = {"os", "sys", "subprocess", "ctypes", "builtins", "importlib", "shutil", "socket", "io", "pathlib",
                  "runpy", "pickle", "marshal", "types", "inspect", "gc", "threading", "multiprocessing", "signal",
                  "mmap", "tempfile", "platform", "sysconfig", "site", "posix", "fcntl", "resource", "pty", "atexit",
                  "weakref", "operator", "linecache", "code", "codeop", "dis"}
# A replacement field of a format string that reads an attribute or an item ("{0.__class__}",
# "{0[key]}"): str.format and format_map read attributes out of sight of the name checks.
_FORMAT_READ = re.compile(r"\{[^{}:!]*[.\[][^{}]*\}")


def _escape_rules(tree, path):
    """Attribute access the name checks cannot see: format strings that read attributes,
    getattr handed on as a value (to functools.reduce, map, ...), and modules reached as
    attributes of an allowed library."""
    out = []
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.body
                  and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            text = node.value.replace("{{", "").replace("}}", "")
            m = _FORMAT_READ.search(text)
            if m:
                out.append(f"{path}:{node.lineno}: a format string reads an attribute or item ({m.group(0)}): "
                           f"attribute access through str.format is not allowed")
        elif isinstance(node, ast.Name) and node.id == "getattr" and id(node) not in called:
            out.append(f"{path}:{node.lineno}: uses getattr as a value (dynamic attribute access is not allowed)")
        elif isinstance(node, ast.Attribute) and node.attr in HIDDEN_MODULES:
            out.append(f"{path}:{node.lineno}: reaches the module {node.attr} as an attribute of "
                       f"{dotted(node.value) or 'an object'} (only the allowed modules may be used)")
    return out


def _allowed_module(name, allowed):
    """Whether an imported name is one of the task's package modules (or inside one)."""
    return any(name == m or name.startswith(m + ".") for m in allowed)


def _library_rules(tree, path, aliases, allowed=()):
    """Monkeypatching, introspection and private library internals."""
    out = []
    modules = {name for name, full in aliases.items()
               if full.split(".")[0] in ALLOWED_IMPORTS or _allowed_module(full, allowed)}
    # A plain name bound to a module (or to something inside one) is that module too.
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and _root(node.value) in modules:
            for t in node.targets:
                if isinstance(t, ast.Name):
                    modules.add(t.id)
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for t in targets:
            if isinstance(t, (ast.Attribute, ast.Subscript)) and _root(t) in modules:
                out.append(f"{path}:{node.lineno}: assigns to an attribute of {dotted(t) or _root(t)} "
                           f"(changing a library at run time, monkeypatching, is not allowed)")
        if isinstance(node, ast.Attribute):
            if node.attr.startswith("__") and node.attr.endswith("__") and node.attr not in DUNDER_ALLOWED:
                out.append(f"{path}:{node.lineno}: uses {node.attr} (introspection is not allowed)")
            name = dotted(node)
            if name:
                head, _, rest = name.partition(".")
                full = aliases.get(head, head) + ("." + rest if rest else "")
                parts = full.split(".")
                if parts[0] in LIBRARIES and any(p.startswith("_") for p in parts[1:]):
                    out.append(f"{path}:{node.lineno}: uses {full} (private {parts[0]} internals are not allowed)")
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                full = a.name if isinstance(node, ast.Import) else f"{node.module}.{a.name}"
                parts = full.split(".")
                if parts[0] in LIBRARIES and any(p.startswith("_") for p in parts[1:]):
                    out.append(f"{path}:{node.lineno}: imports {full} (private {parts[0]} internals are not allowed)")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr":
            key = node.args[1] if len(node.args) > 1 else None
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                out.append(f"{path}:{node.lineno}: calls getattr with a computed name (dynamic attribute access is "
                           f"not allowed)")
            elif key.value.startswith("_"):
                out.append(f"{path}:{node.lineno}: calls getattr for {key.value} (private attributes are not allowed)")
    return out


def package_kernel_names(allowed):
    """The @triton.jit kernels the allowed package modules define, from their installed source
    (a package kernel under @triton.autotune or a package's own entry decorator included)."""
    names = []
    for m in allowed:
        tree = parse(arena_package.module_file(m))
        names += kernel_names(tree, aliases_of(tree), any_jit=True)
    return sorted(set(names))


def kernel_names(tree, aliases, any_jit=False):
    """The module's @triton.jit functions: the only kernels its launches may run."""
    return sorted({node.name for node in ast.walk(tree)
                   if isinstance(node, ast.FunctionDef) and is_jit(node, aliases, any_jit)})


def is_jit(node, aliases, any_jit=False):
    """Whether a function definition is decorated with triton.jit (or, for a package, any *.jit)."""
    for d in node.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        name = dotted(target)
        if not name:
            continue
        head, _, rest = name.partition(".")
        full = aliases.get(head, head) + ("." + rest if rest else "")
        if full in ("triton.jit", "triton.runtime.jit.jit", "triton.language.jit") or full.endswith(".jit") \
                or (any_jit and full.split(".")[-1] == "jit"):
            return True
    return False


def parse(path):
    with open(path) as f:
        return ast.parse(f.read(), filename=path)


def problems_of(path, allowed=()):
    try:
        tree = parse(path)
    except (OSError, SyntaxError, ValueError) as e:
        return [f"{path}: does not parse: {e}"]
    out = []
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for n in names:
                if n.split(".")[0] not in ALLOWED_IMPORTS and not _allowed_module(n, allowed):
                    also = f"; this task's package modules: {', '.join(allowed)}" if allowed else ""
                    out.append(f"{path}:{node.lineno}: imports {n} (allowed: {', '.join(sorted(ALLOWED_IMPORTS))}{also})")
            for a in node.names:
                full = a.name if isinstance(node, ast.Import) else f"{node.module}.{a.name}"
                for bad, why in FORBIDDEN_NAMES.items():
                    if full == bad or full.startswith(bad + "."):
                        out.append(f"{path}:{node.lineno}: imports {full} ({why} is not allowed)")
                aliases[a.asname or a.name.split(".")[0]] = full if a.asname or isinstance(node, ast.ImportFrom) \
                    else a.name.split(".")[0]
        elif isinstance(node, (ast.Attribute, ast.Name)):
            name = dotted(node)
            if not name:
                continue
            head, _, rest = name.partition(".")
            full = aliases.get(head, head) + ("." + rest if rest else "")
            for bad, why in FORBIDDEN_NAMES.items():
                if full == bad or full.startswith(bad + "."):
                    out.append(f"{path}:{node.lineno}: uses {full} ({why} is not allowed)")
        elif isinstance(node, ast.Global):
            out.append(f"{path}:{node.lineno}: assigns module state from a function (no state between calls)")
    out += _library_rules(tree, path, aliases, allowed)
    out += _escape_rules(tree, path)
    top = {id(n) for n in tree.body}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and id(node) not in top and is_jit(node, aliases):
            out.append(f"{path}:{node.lineno}: defines the @triton.jit function {node.name} inside another statement "
                       f"(kernels must be defined at the module's top level, where the judge compiles them from)")
    if not any(isinstance(n, ast.FunctionDef) and n.name == "launch" for n in tree.body):
        out.append(f"{path}: defines no top-level launch()")
    return sorted(set(out))


def aliases_of(tree):
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                full = a.name if isinstance(node, ast.Import) else f"{node.module}.{a.name}"
                aliases[a.asname or a.name.split(".")[0]] = full if a.asname or isinstance(node, ast.ImportFrom) \
                    else a.name.split(".")[0]
    return aliases


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("source")
    p.add_argument("output")
    p.add_argument("--what", default=None)
    p.add_argument("--result", default=None)
    p.add_argument("--allow-import", action="append", default=[], metavar="MODULE",
                   help="a module of the task's package the module may import (repeatable)")
    a = p.parse_args(argv)
    t0 = time.time()
    what = a.what or a.source
    problems = problems_of(a.source, a.allow_import)
    package_kernels = []
    if not problems:
        try:
            package_kernels = package_kernel_names(a.allow_import)
        except (arena_package.PackageError, OSError, SyntaxError) as e:
            problems = [f"{a.source}: the task's package: {e}"]
    if not problems:
        os.makedirs(os.path.dirname(os.path.abspath(a.output)), exist_ok=True)
        shutil.copyfile(a.source, a.output + ".partial")
        os.replace(a.output + ".partial", a.output)
        # The kernels its launches may run, for the judge's check of what a recorded launch ran.
        tree = parse(a.source)
        with open(a.output + ".kernels.partial", "w") as f:
            own = kernel_names(tree, aliases_of(tree))
            f.write("".join(n + "\n" for n in sorted(set(own + package_kernels))))
        os.replace(a.output + ".kernels.partial", a.output + ".kernels")
    if a.result:
        os.makedirs(os.path.dirname(os.path.abspath(a.result)), exist_ok=True)
        with open(a.result + ".partial", "w") as f:
            # The compile gate's result in the schema of harness/common/result_schema.h (CompileResult).
            json.dump({"schema_version": 1, "gate": "compile", "status": "failed" if problems else "passed",
                       "what": what, "source": a.source, "compiled": not problems, "problems": problems,
                       "seconds": time.time() - t0}, f, indent=1)
        os.replace(a.result + ".partial", a.result)
    for line in problems:
        print(line)
    print(f"{what}: {'checked' if not problems else 'REFUSED'} in {time.time() - t0:.1f} s"
          + (f" -> {a.output}" if not problems else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
