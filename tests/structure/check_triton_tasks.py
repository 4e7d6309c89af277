#!/usr/bin/env python3
"""The triton2triton task files, checked without a GPU (standard library only):

- the folder holds task.json, baseline.py, solution.py and README.md, and the oracle: the file
  task.json's "reference" names (a shared one, tasks/_oracles/), else reference.cpp;
- task.json names the folder, the suite triton2triton and the candidate kernel.py;
- baseline.py and solution.py pass the compile gate (harness/python/arena_check_triton.py,
  run as the gates run it), open with a docstring saying what they do, and define
  launch(<tensors>, <params>) with the names and order of task.json, plus `workspace` exactly
  when they define workspace_bytes(<params>);
- README.md names that signature and the file to edit, kernel.py;
- tasks/triton2triton/README.md (the corpus index) links every task.

Before the corpus, each check is shown to fail on a broken copy of a task.

    check_triton_tasks.py                 the corpus (tasks/triton2triton)
    check_triton_tasks.py <task folder>...  these tasks only (no index, no broken copies)"""
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
CHECK = os.path.join(ROOT, "harness", "python", "arena_check_triton.py")
CORPUS = os.path.join(ROOT, "tasks", "triton2triton")
FILES = ("task.json", "baseline.py", "solution.py", "README.md")
failures = []


def check(cond, what):
    print(("ok      " if cond else "FAILED: ") + what)
    if not cond:
        failures.append(what)


def _function(tree, name):
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    return None


def _arg_names(fn):
    a = fn.args
    return [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]


def problems_of(task_dir, tmp):
    """Everything wrong with one task folder, as readable lines (empty: the task is fine)."""
    name = os.path.basename(os.path.normpath(task_dir))
    out = [f"missing {f}" for f in FILES if not os.path.isfile(os.path.join(task_dir, f))]
    try:
        with open(os.path.join(task_dir, "task.json")) as f:
            spec = json.load(f)
    except (OSError, ValueError) as e:
        return out + [f"task.json: {e}"]
    oracle = spec.get("reference", "reference.cpp")
    if not os.path.isfile(os.path.join(task_dir, oracle)):
        out.append(f"missing its oracle {oracle}" + ("" if "reference" in spec else " (or a task.json \"reference\")"))
    for key, want in (("name", name), ("suite", "triton2triton"), ("candidate", "kernel.py")):
        if spec.get(key) != want:
            out.append(f"task.json: {key} is {spec.get(key)!r}, not {want!r}")
    tensors = [t["name"] for t in spec.get("tensors", [])]
    params = [p["name"] for p in spec.get("params", [])]
    signature = f"launch({', '.join(tensors + params)})"

    for kind in ("baseline", "solution"):
        path = os.path.join(task_dir, kind + ".py")
        if not os.path.isfile(path):
            continue
        copy = os.path.join(tmp, name, kind + ".py")
        # A production baseline's package modules may be imported, as the compile gate allows them.
        allow = [a for m in spec.get("package", {}).get("modules", []) for a in ("--allow-import", m)]
        r = subprocess.run([sys.executable, CHECK, path, copy, "--what", f"{name} {kind}"] + allow,
                           capture_output=True, text=True)
        if r.returncode != 0:
            out.append(f"{kind}.py: refused by the compile gate: " + " | ".join(r.stdout.strip().splitlines()))
            continue
        with open(path) as f:
            tree = ast.parse(f.read(), filename=path)
        if not (ast.get_docstring(tree) or "").strip():
            out.append(f"{kind}.py: no module docstring saying what it does")
        launch = _function(tree, "launch")
        workspace = _function(tree, "workspace_bytes")
        want = tensors + params + (["workspace"] if workspace else [])
        got = _arg_names(launch)
        if got != want:
            out.append(f"{kind}.py: launch({', '.join(got)}) is not launch({', '.join(want)})")
        if launch.args.vararg or launch.args.kwarg:
            out.append(f"{kind}.py: launch takes *args or **kwargs (name the spec's tensors and params)")
        if workspace and sorted(_arg_names(workspace)) != sorted(params) and not workspace.args.kwarg:
            out.append(f"{kind}.py: workspace_bytes({', '.join(_arg_names(workspace))}) does not take "
                       f"the params ({', '.join(params)})")

    try:
        with open(os.path.join(task_dir, "README.md")) as f:
            readme = " ".join(f.read().split())
        if f"`{signature}`" not in readme:
            out.append(f"README.md: does not name the entry point `{signature}`")
        if "kernel.py" not in readme:
            out.append("README.md: does not name the file to edit, kernel.py")
    except OSError:
        pass
    return out


def task_dirs(root):
    return sorted(os.path.join(root, d) for d in os.listdir(root)
                  if os.path.isfile(os.path.join(root, d, "task.json")))


def index_problems(root):
    try:
        with open(os.path.join(root, "README.md")) as f:
            index = f.read()
    except OSError as e:
        return [f"no corpus index: {e}"]
    return [f"{os.path.basename(d)} is not in the corpus index ({root}/README.md)"
            for d in task_dirs(root) if f"]({os.path.basename(d)}/README.md)" not in index]


def _edit(path, old, new):
    with open(path) as f:
        text = f.read()
    assert old in text, (path, old)
    with open(path, "w") as f:
        f.write(text.replace(old, new, 1))


def _copy_task(source, tasks_root):
    """A copy of a task at <tasks_root>/triton2triton/<task>, where the shared oracles it names
    (../../_oracles/) are found too."""
    dest = os.path.join(tasks_root, "triton2triton", os.path.basename(source))
    shutil.copytree(source, dest)
    os.symlink(os.path.join(os.path.dirname(CORPUS), "_oracles"), os.path.join(tasks_root, "_oracles"))
    return dest


def show_checks_can_fail(tmp):
    """Each check, on a copy of gelu_f16 broken in one way, names what is wrong."""
    source = os.path.join(CORPUS, "gelu_f16")
    if not os.path.isdir(source):
        check(False, f"{source} exists (the broken copies start from it)")
        return
    cases = {
        "missing solution.py": (lambda d: os.remove(os.path.join(d, "solution.py")), "missing solution.py"),
        "forbidden import": (lambda d: _edit(os.path.join(d, "baseline.py"), "import triton\n",
                                             "import os\nimport triton\n"), "refused by the compile gate"),
        "renamed launch argument": (lambda d: _edit(os.path.join(d, "solution.py"), "def launch(x, y, N)",
                                                    "def launch(x, out, N)"), "is not launch(x, y, N)"),
        "workspace without workspace_bytes": (lambda d: _edit(os.path.join(d, "baseline.py"), "def launch(x, y, N)",
                                                              "def launch(x, y, N, workspace)"),
                                              "is not launch(x, y, N)"),
        "no docstring": (lambda d: _edit(os.path.join(d, "baseline.py"), '"""Exact', '_ = """Exact'),
                         "no module docstring"),
        "statement without the signature": (lambda d: _edit(os.path.join(d, "README.md"), "launch(x, y, N)",
                                                            "launch(x, y)"),
                                            "does not name the entry point"),
        "wrong candidate file": (lambda d: _edit(os.path.join(d, "task.json"), '"kernel.py"', '"kernel.hip"'),
                                 "candidate is 'kernel.hip'"),
        "no oracle": (lambda d: _edit(os.path.join(d, "task.json"), '"reference": ', '"_reference": '),
                      "missing its oracle reference.cpp"),
    }
    for what, (breaker, want) in cases.items():
        case_dir = _copy_task(source, os.path.join(tmp, "broken", what.replace(" ", "_")))
        breaker(case_dir)
        found = problems_of(case_dir, os.path.join(tmp, "broken-out"))
        check(any(want in p for p in found), f"a task with {what} is caught ('{want}'): {found}")
    clean = _copy_task(source, os.path.join(tmp, "clean"))
    found = problems_of(clean, os.path.join(tmp, "clean-out"))
    check(not found, f"an unchanged copy of gelu_f16 passes: {found}")
    index_dir = os.path.join(tmp, "index")
    shutil.copytree(source, os.path.join(index_dir, "gelu_f16"))
    with open(os.path.join(index_dir, "README.md"), "w") as f:
        f.write("| task |\n|---|\n")
    check(index_problems(index_dir) != [], "a corpus index without a task is caught")


def main(argv):
    tmp = tempfile.mkdtemp(prefix="arena_triton_tasks_")
    try:
        if argv:
            dirs = [os.path.abspath(d) for d in argv]
        else:
            show_checks_can_fail(tmp)
            if not os.path.isdir(CORPUS):
                print(f"(no {CORPUS}: nothing else to check)")
                return 1 if failures else 0
            dirs = task_dirs(CORPUS)
            check(len(dirs) > 0, f"{CORPUS} holds tasks ({len(dirs)})")
            for p in index_problems(CORPUS):
                check(False, p)
        for d in dirs:
            found = problems_of(d, tmp)
            check(not found, f"{os.path.basename(d)}" + (": " + "; ".join(found) if found else ""))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
