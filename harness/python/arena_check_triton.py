#!/usr/bin/env python3
"""The compile gate of a Triton candidate: the module parses, defines launch(), imports only
what a Triton kernel needs, and names none of the calls the rules forbid (streams,
synchronization, vendor libraries, native code, processes). What it does at run time is
checked again when it runs (only Triton kernels may compute: arena_triton.py). On success
the module is copied to <output>.

    arena_check_triton.py <kernel.py> <output.py> [--what LABEL] [--result result.json]"""
import argparse
import ast
import json
import os
import shutil
import sys
import time

ALLOWED_IMPORTS = {"torch", "triton", "math", "functools", "typing", "itertools", "dataclasses", "enum", "struct"}
FORBIDDEN_NAMES = {
    "torch.cuda.Stream": "stream creation", "torch.cuda.synchronize": "device synchronization",
    "torch.cuda.set_stream": "stream switching", "torch.cuda.stream": "stream switching",
    "torch.cuda.graph": "graph capture", "torch.cuda.CUDAGraph": "graph capture",
    "torch.ops": "calls into registered native operators", "torch.library": "native operators",
    "torch.utils.cpp_extension": "native code", "torch.compile": "a second compiler",
    "torch.backends": "library settings", "torch._C": "PyTorch internals", "torch.cuda.Event": "events",
    "torch.cuda.memory": "allocator control", "torch.cuda.empty_cache": "allocator control",
    "__import__": "dynamic imports", "importlib": "dynamic imports", "exec": "dynamic code", "eval": "dynamic code",
    "open": "file access", "globals": "module state", "setattr": "state between calls",
}


def dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def problems_of(path):
    try:
        with open(path) as f:
            tree = ast.parse(f.read(), filename=path)
    except (OSError, SyntaxError, ValueError) as e:
        return [f"{path}: does not parse: {e}"]
    out = []
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for n in names:
                if n.split(".")[0] not in ALLOWED_IMPORTS:
                    out.append(f"{path}:{node.lineno}: imports {n} (allowed: {', '.join(sorted(ALLOWED_IMPORTS))})")
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
    if not any(isinstance(n, ast.FunctionDef) and n.name == "launch" for n in tree.body):
        out.append(f"{path}: defines no top-level launch()")
    return sorted(set(out))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("source")
    p.add_argument("output")
    p.add_argument("--what", default=None)
    p.add_argument("--result", default=None)
    a = p.parse_args(argv)
    t0 = time.time()
    what = a.what or a.source
    problems = problems_of(a.source)
    if not problems:
        os.makedirs(os.path.dirname(os.path.abspath(a.output)), exist_ok=True)
        shutil.copyfile(a.source, a.output + ".partial")
        os.replace(a.output + ".partial", a.output)
    if a.result:
        os.makedirs(os.path.dirname(os.path.abspath(a.result)), exist_ok=True)
        with open(a.result + ".partial", "w") as f:
            json.dump({"what": what, "source": a.source, "compiled": not problems, "problems": problems,
                       "seconds": time.time() - t0}, f, indent=1)
        os.replace(a.result + ".partial", a.result)
    for line in problems:
        print(line)
    print(f"{what}: {'checked' if not problems else 'REFUSED'} in {time.time() - t0:.1f} s"
          + (f" -> {a.output}" if not problems else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
