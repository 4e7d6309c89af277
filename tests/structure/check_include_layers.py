#!/usr/bin/env python3
"""Checks that the harness's includes form layers without circles (docs/DESIGN.md, "How to change it").

Each folder of harness/ is a layer and may include only from itself and the layers listed
for it below; within and across layers the quoted includes must form no cycle. A quoted
include is resolved as the compiler does: the including file's folder first, then the
layer's search path. An include that resolves nowhere in the project is left alone (system
or third-party headers). Prints one "FAILED: " line per violation and exits 1; 0 when clean.

    check_include_layers.py [harness folder] [--expect TEXT]...

With --expect (the check's own test, on a fixture tree that breaks the rules): exit 0 when
the problems found are exactly as many as the TEXTs and each TEXT is part of one of them.
"""
import os
import re
import sys

# Layer -> the layers it may include from (searched in this order after its own folder).
ALLOWED = {
    "include": [],                      # the kernel ABI and the HIP-on-CUDA layer
    "common": [],                       # the result schema
    "src": ["include", "common"],       # the runners' host library
    "device": ["src"],                  # the device backend: device_api.h only
    "score": ["common"],                # arena-score: the schema, never the runners
    "tools": ["src", "common", "include"],
}
SOURCE = re.compile(r"\.(h|hpp|cpp|cc|hip|cu|cuh)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(rel):
    return rel.split(os.sep, 1)[0]


def main():
    args, expect = sys.argv[1:], []
    while "--expect" in args:
        i = args.index("--expect")
        expect.append(args[i + 1])
        del args[i:i + 2]
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), "../../harness"))
    files = []
    for layer in ALLOWED:
        for dirpath, _, names in os.walk(os.path.join(root, layer)):
            files += [os.path.relpath(os.path.join(dirpath, n), root) for n in names if SOURCE.search(n)]
    known = set(files)
    problems, graph = [], {f: [] for f in files}
    for f in sorted(files):
        text = open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
        layer = layer_of(f)
        for name in INCLUDE.findall(text):
            candidates = [os.path.normpath(os.path.join(os.path.dirname(f), name))]
            candidates += [os.path.normpath(os.path.join(l, name)) for l in ALLOWED[layer]]
            target = next((c for c in candidates if c in known), None)
            if target is None:
                # Not reachable by the layer's own path: is it another layer's file?
                elsewhere = [l for l in ALLOWED if os.path.normpath(os.path.join(l, name)) in known]
                if elsewhere and layer not in elsewhere:
                    problems.append(f"{f} includes \"{name}\" of layer {elsewhere[0]}, which {layer} may not use")
                continue
            if layer_of(target) != layer and layer_of(target) not in ALLOWED[layer]:
                problems.append(f"{f} includes {target}: layer {layer} may not use {layer_of(target)}")
            graph[f].append(target)
    # Cycles: depth-first search, reporting each cycle once by its path.
    state, stack, seen_cycles = {}, [], set()

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in graph[node]:
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt):] + [nxt]
                key = frozenset(cycle)
                if key not in seen_cycles:
                    seen_cycles.add(key)
                    problems.append("include cycle: " + " -> ".join(cycle))
            elif state.get(nxt) is None:
                visit(nxt)
        stack.pop()
        state[node] = 2

    sys.setrecursionlimit(10000)
    for f in sorted(files):
        if state.get(f) is None:
            visit(f)
    edges = sum(len(v) for v in graph.values())
    if expect:
        missing = [e for e in expect if not any(e in p for p in problems)]
        for p in problems:
            print("found: " + p)
        for e in missing:
            print("FAILED: the check did not report: " + e)
        if len(problems) != len(expect):
            print(f"FAILED: {len(problems)} problem(s) found, {len(expect)} expected")
        return 1 if missing or len(problems) != len(expect) else 0
    for p in problems:
        print("FAILED: " + p)
    print(f"{len(files)} files, {edges} project includes in {len(ALLOWED)} layers: "
          + ("clean" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
