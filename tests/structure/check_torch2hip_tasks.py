#!/usr/bin/env python3
"""Checks the torch2hip task files without a GPU or PyTorch:
- every task folder holds task.json, reference.py, solution.hip and README.md;
- tasks/torch2hip/README.md (the corpus index) links every task.

    check_torch2hip_tasks.py [tasks/torch2hip]

Prints "FAILED: ..." per problem and exits 1 when there is any."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tasks", "torch2hip")
FILES = ("task.json", "reference.py", "solution.hip", "README.md")


def problems(root):
    out = []
    tasks = sorted(d for d in os.listdir(root) if os.path.isfile(os.path.join(root, d, "task.json")))
    with open(os.path.join(root, "README.md")) as f:
        index = f.read()
    for name in tasks:
        d = os.path.join(root, name)
        for f in FILES:
            if not os.path.isfile(os.path.join(d, f)):
                out.append(f"{name}: missing {f}")
        row = next((line for line in index.splitlines() if f"]({name}/README.md)" in line), None)
        if row is None:
            out.append(f"{name} is not in the corpus index ({root}/README.md)")
    return out, len(tasks)


def main(argv):
    root = argv[1] if len(argv) > 1 else ROOT
    found, n = problems(root)
    for p in found:
        print(f"FAILED: {p}")
    if not found:
        print(f"passed: {n} torch2hip task(s), every one in the index")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
