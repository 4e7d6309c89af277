#!/usr/bin/env python3
"""What the task corpus is made of, checked without a GPU (docs/DESIGN.md, "Production
baselines"):

- every task with a `package` (a production baseline) pins the version that the suite's
  requirements.txt pins, its baseline.py imports from the package modules it names and from
  no other module of the package, and no file of the task repeats the package's code: no run
  of --run-lines (default 4) consecutive non-trivial lines of the task (comments and blank
  lines left out, whitespace ignored) appears in the package's installed source;
- every task with a `workload` names its source, license, level, problem and name, and its
  README names the source and the problem;
- at most 10 % of a suite's production baselines are marked `at_limit` (no expert solution
  is FASTER there, docs/DESIGN.md "Production baselines"), so the suite stays one of speedups;
- the counts reach the floors given (--min SUITE=N, --min-package SUITE=N,
  --min-workload SUITE=N, and --min-category SUITE:CAT[,CAT...]=N for the production
  baselines whose task.json category is one of those), so the corpus cannot shrink unnoticed.

    check_corpus.py <tasks dir> [--min triton2triton=64] [--min-package triton2triton=40]
                    [--min-category triton2triton:attention,linear_attention=6] ...
    check_corpus.py --show-checks-fail   builds broken corpora in a temporary folder (lines of
                                         the installed package copied there, a wrong pin, ...)
                                         and shows that each is reported

Prints one line per suite and one per problem; exit 1 on any problem, 2 on bad usage."""
import argparse
import ast
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "harness", "python"))
import arena_package  # noqa: E402

AT_LIMIT_MAX_FRACTION = 0.10  # of a suite's production baselines
TRIVIAL = re.compile(r"^[\s\)\]\}\(\[\{,:;]*$|^(return|pass|else:|try:|import \w+|\"\"\"|''')$")


def code_lines(text):
    """Normalized, non-trivial lines: no comments, docstring quotes or whitespace."""
    out = []
    for line in text.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line).strip()
        line = re.sub(r"\s+", "", line)
        if line and not TRIVIAL.match(line):
            out.append(line)
    return out


def runs(lines, n):
    return {tuple(lines[i:i + n]) for i in range(len(lines) - n + 1)}


def package_runs(modules, n):
    """Every run of n lines in the installed package's source tree (all its files)."""
    roots = {os.path.dirname(arena_package.module_file(m.split(".")[0])) for m in modules}
    out = set()
    for root in roots:
        for d, _, files in os.walk(root):
            for f in files:
                if f.endswith(".py"):
                    with open(os.path.join(d, f), errors="replace") as fh:
                        out |= runs(code_lines(fh.read()), n)
    return out


def pins(requirements):
    out = {}
    if os.path.isfile(requirements):
        for line in open(requirements):
            m = re.match(r"^([A-Za-z0-9_.\-]+)==([^\s\\]+)", line.strip())
            if m:
                out[re.sub(r"[-_.]+", "-", m.group(1)).lower()] = m.group(2)
    return out


def imported_modules(path):
    tree = ast.parse(open(path).read(), filename=path)
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


def check_package(task_dir, spec, suite_pins, run_lines, cache):
    problems = []
    p = spec["package"]
    name = re.sub(r"[-_.]+", "-", p["name"]).lower()
    if suite_pins.get(name) != p["version"]:
        problems.append(f"package {p['name']}=={p['version']} is not the version the suite's requirements.txt pins "
                        f"({suite_pins.get(name, 'not listed')})")
    baseline = os.path.join(task_dir, "baseline.py")
    if not os.path.isfile(baseline):
        return problems + ["a production baseline needs baseline.py"]
    tops = {m.split(".")[0] for m in p["modules"]}
    imported = imported_modules(baseline)
    from_package = {m for m in imported if m.split(".")[0] in tops}
    if not from_package:
        problems.append(f"baseline.py imports nothing from {p['name']} (a production baseline imports the package)")
    for m in sorted(from_package - set(p["modules"])):
        problems.append(f"baseline.py imports {m}, which package.modules does not list")
    try:
        arena_package.checked_version(p["name"], p["version"])
        key = (tuple(sorted(tops)), run_lines)
        if key not in cache:
            cache[key] = package_runs(p["modules"], run_lines)
    except arena_package.PackageError as e:
        return problems + [f"cannot read the package's source: {e}"]
    for f in sorted(os.listdir(task_dir)):
        if not f.endswith((".py", ".cpp", ".h", ".hip", ".md")):
            continue
        lines = code_lines(open(os.path.join(task_dir, f), errors="replace").read())
        copied = runs(lines, run_lines) & cache[key]
        if copied:
            sample = " / ".join(sorted(copied)[0])
            problems.append(f"{f} repeats {len(copied)} run(s) of {run_lines} lines of {p['name']}'s source, e.g. "
                            f"'{sample[:160]}' (import the package instead of copying it)")
    return problems


def check_workload(task_dir, spec):
    w = spec["workload"]
    problems = [f"workload.{k} is missing" for k in ("source", "license", "name", "level", "problem") if not w.get(k)]
    readme = os.path.join(task_dir, "README.md")
    text = open(readme).read() if os.path.isfile(readme) else ""
    if w.get("source") and w["source"] not in text:
        problems.append(f"README.md does not name the workload's source ({w['source']})")
    if w.get("name") and w["name"] not in text and str(w.get("problem", "")) not in text:
        problems.append(f"README.md names neither the problem's number nor its name ({w['name']})")
    return problems


def floors(items, what):
    out = {}
    for item in items:
        suite, _, n = item.partition("=")
        if not suite or not n.isdigit():
            raise SystemExit(f"check_corpus: {what} {item!r}: expected SUITE=N")
        out[suite] = int(n)
    return out


def category_floors(items):
    """--min-category SUITE:CAT[,CAT...]=N -> {suite: [(frozenset of categories, N, label)]}."""
    out = {}
    for item in items:
        m = re.match(r"^([^:=]+):([A-Za-z0-9_,]+)=(\d+)$", item)
        if not m:
            raise SystemExit(f"check_corpus: --min-category {item!r}: expected SUITE:CAT[,CAT...]=N")
        out.setdefault(m.group(1), []).append((frozenset(m.group(2).split(",")), int(m.group(3)), m.group(2)))
    return out


def show_checks_fail():
    """Each check on a corpus made to break it, in a temporary folder; returns the misses."""
    import contextlib
    import io
    import tempfile
    source = open(arena_package.module_file("liger_kernel.ops.rms_norm")).read()
    copied = "\n".join(code_lines(source)[40:44])
    with tempfile.TemporaryDirectory() as tmp:
        task = os.path.join(tmp, "tasks", "triton2triton", "t")
        os.makedirs(task)
        suites = os.path.join(tmp, "suites", "triton2triton")
        os.makedirs(suites)
        with open(os.path.join(suites, "requirements.txt"), "w") as f:
            f.write("liger-kernel==0.8.4 --hash=sha256:0\n")
        spec = {"name": "t", "package": {"name": "liger-kernel", "version": "0.8.5", "license": "BSD-2-Clause",
                                         "modules": ["liger_kernel.ops.rms_norm"],
                                         "callable": "liger_kernel.ops.rms_norm.rms_norm_forward"},
                "workload": {"source": "KernelBench", "license": "MIT", "name": "Some_Problem"},
                "at_limit": {"fraction_of_peak": 0.9, "why": "one read at 90 % of bandwidth"}}
        json.dump(spec, open(os.path.join(task, "task.json"), "w"))
        open(os.path.join(task, "baseline.py"), "w").write("from liger_kernel.ops.utils import calculate_settings\n")
        open(os.path.join(task, "solution.py"), "w").write(copied + "\n")
        open(os.path.join(task, "README.md"), "w").write("no source named\n")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            main([os.path.join(tmp, "tasks"), "--suites", os.path.join(tmp, "suites"), "--min", "triton2triton=2",
                  "--min-category", "triton2triton:attention,linear_attention=1"])
        text = out.getvalue()
    expected = ["is not the version the suite's requirements.txt pins (0.8.4)",
                "baseline.py imports liger_kernel.ops.utils, which package.modules does not list",
                "solution.py repeats", "workload.level is missing", "workload.problem is missing",
                "README.md does not name the workload's source", "1 tasks, fewer than the floor of 2",
                "0 production baselines in attention,linear_attention, fewer than the floor of 1",
                "1 of 1 production baselines marked at_limit, more than 10 % (at most 0)"]
    misses = [e for e in expected if e not in text]
    for e in expected:
        print(("caught: " if e not in misses else "FAILED: not caught: ") + e)
    return misses


def main(argv=None):
    if argv is None and sys.argv[1:] == ["--show-checks-fail"]:
        return 1 if show_checks_fail() else 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tasks")
    ap.add_argument("--suites", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "suites"))
    ap.add_argument("--min", action="append", default=[])
    ap.add_argument("--min-package", action="append", default=[])
    ap.add_argument("--min-workload", action="append", default=[])
    ap.add_argument("--min-category", action="append", default=[])
    ap.add_argument("--run-lines", type=int, default=4)
    a = ap.parse_args(argv)
    want = {"tasks": floors(a.min, "--min"), "package": floors(a.min_package, "--min-package"),
            "workload": floors(a.min_workload, "--min-workload")}
    want_category = category_floors(a.min_category)
    problems, cache = [], {}
    for suite in sorted(os.listdir(a.tasks)):
        sdir = os.path.join(a.tasks, suite)
        if suite.startswith("_") or not os.path.isdir(sdir):
            continue
        suite_pins = pins(os.path.join(a.suites, suite, "requirements.txt"))
        count = {"tasks": 0, "package": 0, "workload": 0, "at_limit": 0}
        by_category = {}
        for task in sorted(os.listdir(sdir)):
            spec_file = os.path.join(sdir, task, "task.json")
            if not os.path.isfile(spec_file):
                continue
            try:
                spec = json.load(open(spec_file))
            except ValueError as e:
                problems.append(f"{suite}/{task}: task.json does not parse: {e}")
                continue
            count["tasks"] += 1
            found = []
            if "package" in spec:
                count["package"] += 1
                count["at_limit"] += "at_limit" in spec
                by_category[spec.get("category")] = by_category.get(spec.get("category"), 0) + 1
                found += check_package(os.path.join(sdir, task), spec, suite_pins, a.run_lines, cache)
            if "workload" in spec:
                count["workload"] += 1
                found += check_workload(os.path.join(sdir, task), spec)
            problems += [f"{suite}/{task}: {p}" for p in found]
        print(f"{suite}: {count['tasks']} tasks, {count['package']} with a production baseline from a pinned package, "
              f"{count['workload']} with a workload from a named source")
        at_limit_max = int(AT_LIMIT_MAX_FRACTION * count["package"] + 1e-9)
        if count["at_limit"]:
            print(f"{suite}: {count['at_limit']} of {count['package']} production baselines marked at_limit "
                  f"(at most {at_limit_max})")
        if count["at_limit"] > at_limit_max:
            problems.append(f"{suite}: {count['at_limit']} of {count['package']} production baselines marked at_limit, "
                            f"more than {round(100 * AT_LIMIT_MAX_FRACTION)} % (at most {at_limit_max})")
        for kind, label in (("tasks", "tasks"), ("package", "production baselines"), ("workload", "named workloads")):
            floor = want[kind].pop(suite, 0)
            if count[kind] < floor:
                problems.append(f"{suite}: {count[kind]} {label}, fewer than the floor of {floor}")
        for cats, floor, label in want_category.pop(suite, []):
            n = sum(c for cat, c in by_category.items() if cat in cats)
            print(f"{suite}: {n} production baselines in {label}")
            if n < floor:
                problems.append(f"{suite}: {n} production baselines in {label}, fewer than the floor of {floor}")
    for kind in list(want) + ["category"]:
        for suite in (want_category if kind == "category" else want[kind]):
            problems.append(f"{suite}: a floor is set for a suite with no folder in {a.tasks}")
    for p in problems:
        print(f"FAILED: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
