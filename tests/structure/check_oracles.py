#!/usr/bin/env python3
"""The host oracles (C++), checked without a GPU (standard library only), so that a fix to an
oracle lands once (tasks/_oracles/README.md):

- every hip2hip and triton2triton task has its oracle: the file task.json's "reference" names,
  else reference.cpp in its folder;
- no two oracle sources (tasks/<suite>/<task>/reference.cpp, tasks/_oracles/*.cpp) are the same
  code once comments, #include lines and whitespace are left out: tasks that compute the same
  share one oracle in tasks/_oracles/;
- every oracle in tasks/_oracles/ serves at least two tasks (one used once lives in its task's
  folder);
- no oracle copies the body of a loop from tasks/_oracles/oracle_helpers.h: it calls it.

Before the corpus, each check is shown to fail on a broken copy of the tasks.

    check_oracles.py [tasks folder]"""
import json
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TASKS = os.path.normpath(os.path.join(HERE, "..", "..", "tasks"))
HELPERS = "oracle_helpers.h"
MIN_HELPER_LINES = 3  # shorter helper bodies (a max, a sum) match too much unrelated code
failures = []


def check(cond, what):
    print(("ok      " if cond else "FAILED: ") + what)
    if not cond:
        failures.append(what)


def code_lines(path, keep_includes=False):
    """The file's code: comments and blank lines left out, whitespace collapsed."""
    with open(path) as f:
        text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
    out = []
    for line in text.splitlines():
        line = " ".join(re.sub(r"//.*", "", line).split())
        if line and (keep_includes or not line.startswith("#include")):
            out.append(line)
    return out


def helper_bodies(path):
    """name -> the code lines of each inline function's body in oracle_helpers.h (its return
    statements left out: a copy assigns instead)."""
    bodies, name, body = {}, None, []
    for line in code_lines(path):
        m = re.match(r"inline .*?\b(\w+)\(.*\{$", line)
        if m:
            name, body = m.group(1), []
        elif name and line == "}" and not body_open(body):
            bodies[name] = [b for b in body if not b.startswith("return")]
            name = None
        elif name:
            body.append(line)
    return {n: b for n, b in bodies.items() if len(b) >= MIN_HELPER_LINES}


def body_open(lines):
    """Whether the braces opened in these lines are not all closed yet."""
    return sum(line.count("{") - line.count("}") for line in lines) > 0


def problems(root):
    """Everything wrong with the oracles under a tasks folder, as readable lines."""
    out = []
    shared_dir = os.path.join(root, "_oracles")
    users = {}  # oracle file -> tasks naming it
    for suite in sorted(os.listdir(root)):
        sdir = os.path.join(root, suite)
        if suite.startswith("_") or not os.path.isdir(sdir):
            continue
        for task in sorted(os.listdir(sdir)):
            spec_path = os.path.join(sdir, task, "task.json")
            if not os.path.isfile(spec_path):
                continue
            with open(spec_path) as f:
                spec = json.load(f)
            if "torch" in spec:
                continue  # torch2hip: the oracle is reference.py
            oracle = os.path.normpath(os.path.join(sdir, task, spec.get("reference", "reference.cpp")))
            if not os.path.isfile(oracle):
                out.append(f"{suite}/{task} has no oracle: {oracle} does not exist")
                continue
            users.setdefault(oracle, []).append(f"{suite}/{task}")
    sources = sorted(users)
    if os.path.isdir(shared_dir):
        sources += sorted(os.path.join(shared_dir, f) for f in os.listdir(shared_dir)
                          if f.endswith(".cpp") and os.path.join(shared_dir, f) not in users)
    rel = {s: os.path.relpath(s, root) for s in sources}
    by_code = {}
    for s in sources:
        by_code.setdefault(tuple(code_lines(s)), []).append(s)
    for same in by_code.values():
        if len(same) > 1:
            out.append(f"{' and '.join(rel[s] for s in same)} are the same oracle: keep one in tasks/_oracles/ and "
                       f"name it in each task.json's \"reference\"")
    for s in sources:
        if os.path.dirname(s) == shared_dir and len(users.get(s, [])) < 2:
            who = ", ".join(users.get(s, [])) or "no task"
            out.append(f"{rel[s]} serves {who}: a shared oracle serves two tasks or more (one used once lives in "
                       f"its task's folder)")
    helpers = os.path.join(shared_dir, HELPERS)
    bodies = helper_bodies(helpers) if os.path.isfile(helpers) else {}
    for s in sources:
        lines = code_lines(s)
        for name, body in bodies.items():
            if any(lines[i:i + len(body)] == body for i in range(len(lines) - len(body) + 1)):
                out.append(f"{rel[s]} copies the loop of oracle::{name} (tasks/_oracles/{HELPERS}): call it")
    return out, len(sum(users.values(), []))


def show_checks_can_fail(tmp):
    """Each check, on a copy of the tasks broken in one way, names what is wrong."""
    gemm = os.path.join(TASKS, "_oracles", "gemm.cpp")

    def copy_of_gemm_task(d):
        """A second copy of the shared gemm oracle, as a task folder's own reference.cpp."""
        spec = os.path.join(d, "hip2hip", "gemm_f32", "task.json")
        with open(spec) as f:
            text = f.read()
        with open(spec, "w") as f:
            f.write(re.sub(r'\n  "reference": "[^"]*",', "", text))
        with open(gemm) as f:
            code = f.read()
        with open(os.path.join(d, "hip2hip", "gemm_f32", "reference.cpp"), "w") as f:
            f.write("// The same oracle under another comment.\n" + code.replace("#include \"oracle_helpers.h\"",
                                                                                  "#include \"../../_oracles/oracle_helpers.h\""))

    def inlined_gemm_loop(d):
        """gemm.cpp with oracle::gemm's loop written out instead of called."""
        body = "\n".join(helper_bodies(os.path.join(TASKS, "_oracles", HELPERS))["gemm"])
        with open(os.path.join(d, "_oracles", "gemm.cpp"), "w") as f:
            f.write('#include "arena/arena_reference.h"\n#include <cstdint>\n'
                    "ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {\n"
                    "const double* A = a->tensors[0];\nconst double* B = a->tensors[1];\ndouble* C = a->tensors[2];\n"
                    "const int64_t M = a->ints[0], N = a->ints[1], K = a->ints[2];\n" + body + "\nreturn 0;\n}\n")

    def orphan(d):
        shutil.copyfile(gemm, os.path.join(d, "_oracles", "unused.cpp"))
        with open(os.path.join(d, "_oracles", "unused.cpp"), "a") as f:
            f.write("int arena_unused_marker = 1;\n")

    cases = {
        "a task folder's copy of a shared oracle": (copy_of_gemm_task, "are the same oracle"),
        "a helper's loop copied into an oracle": (inlined_gemm_loop, "copies the loop of oracle::gemm"),
        "a shared oracle no task names": (orphan, "_oracles/unused.cpp serves no task"),
        "a missing shared oracle": (lambda d: os.remove(os.path.join(d, "_oracles", "gelu.cpp")), "has no oracle"),
    }
    for what, (breaker, want) in cases.items():
        root = os.path.join(tmp, what.replace(" ", "_").replace("'", ""))
        shutil.copytree(TASKS, root, ignore=shutil.ignore_patterns("*.py", "*.hip", "README.md"))
        breaker(root)
        found, _ = problems(root)
        check(any(want in p for p in found), f"{what} is caught ('{want}'): {found}")


def main(argv):
    root = argv[1] if len(argv) > 1 else TASKS
    tmp = tempfile.mkdtemp(prefix="arena_oracles_")
    try:
        if len(argv) == 1:
            show_checks_can_fail(tmp)
        found, n = problems(root)
        for p in found:
            check(False, p)
        check(n > 0, f"{root}: {n} tasks with a C++ oracle, each oracle written once")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
