#!/usr/bin/env python3
"""Code a maintainer can read: no file in harness/ over 450 lines and no function over 80
(docs/DESIGN.md, "How to change it"). Lists every offender. Offenders that predate the limit are kept
in a ratchet file with their size: the check fails on a new offender and on a listed one that
grew, and tells when a listed one got within the limits (so the list only shrinks). Before the
tree, the check is shown to fail on made-up sources. Standard library only.

    check_code_size.py <project root> <ratchet file>

Functions: C++ (.cpp .h .hip .cu) by brace matching (a body that opens after a parameter list
at namespace, class or extern scope), Python by ast."""
import ast
import os
import re
import sys
import tempfile

MAX_FILE_LINES = 450
MAX_FUNCTION_LINES = 80
CXX = (".cpp", ".h", ".hpp", ".hip", ".cu", ".cuh")


def strip_cxx(text):
    """Comments, string and char literals blanked (newlines kept), so braces in them do not count."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            end = text.find(")" + (m.group(1) if m else "") + '"', i)
            j = n if end < 0 or not m else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * (j - i - 2) + c if j - i >= 2 else text[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


# What may stand between a parameter list's ")" and a function body's "{".
_TAIL = re.compile(r"\)\s*(const|noexcept(\([^)]*\))?|override|final|mutable|&|&&|->\s*[\w:<>,\s*&]+|\s)*$")
_SCOPE = re.compile(r"(\bnamespace\b[\w\s:]*|\bextern\s*\"?C?\"?\s*|\b(class|struct|union)\b[^;{()]*)$")


def cxx_functions(text):
    """(name, first line, lines) of each function body at namespace, class or extern scope."""
    code = strip_cxx(text)
    found, stack = [], []  # stack: "scope" or "other" per open brace
    line = 1
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif c == "{":
            head = code[max(0, i - 400):i]
            head = head[max(head.rfind(";"), head.rfind("}"), head.rfind("{")) + 1:]
            in_scope = all(s == "scope" for s in stack)
            if in_scope and _SCOPE.search(head.strip()):
                stack.append("scope")
            elif in_scope and _TAIL.search(head.rstrip()) and not re.search(r"=\s*$|\breturn\b", head):
                name = re.findall(r"([~\w:]+)\s*\(", head)
                stack.append(("fn", name[0] if name else "?", line))
            else:
                stack.append("other")
        elif c == "}" and stack:
            top = stack.pop()
            if isinstance(top, tuple):
                found.append((top[1], top[2], line - top[2] + 1))
    return found


def python_functions(text, path):
    try:
        tree = ast.parse(text, path)
    except SyntaxError:
        return []
    return [(n.name, n.lineno, n.end_lineno - n.lineno + 1) for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def offenders(root, folders=("harness",)):
    """{key: size}: 'path' for a file over the limit (its lines), 'path:function' for a function."""
    out = {}
    for folder in folders:
        for d, _, files in os.walk(os.path.join(root, folder)):
            for f in sorted(files):
                path = os.path.join(d, f)
                rel = os.path.relpath(path, root)
                if not f.endswith(CXX + (".py",)) and not (f.startswith("arena-") and "." not in f):
                    continue
                try:
                    text = open(path, encoding="utf-8").read()
                except (UnicodeDecodeError, OSError):
                    continue
                lines = len(text.splitlines())
                if lines > MAX_FILE_LINES:
                    out[rel] = lines
                if f.endswith(CXX):
                    fns = cxx_functions(text)
                elif f.endswith(".py") or text.startswith("#!/usr/bin/env python"):
                    fns = python_functions(text, path)
                else:
                    fns = []
                for name, _, n in fns:
                    if n > MAX_FUNCTION_LINES:
                        key = f"{rel}:{name}"  # overloads of one name: the longest
                        out[key] = max(n, out.get(key, 0))
    return out


def read_ratchet(path):
    listed = {}
    for raw in open(path, encoding="utf-8"):
        raw = raw.split("#", 1)[0].strip()
        if raw:
            key, size = raw.rsplit(None, 1)
            listed[key] = int(size)
    return listed


def compare(found, listed):
    """(failures, notes)."""
    failures, notes = [], []
    for key, size in sorted(found.items()):
        limit = MAX_FUNCTION_LINES if ":" in key else MAX_FILE_LINES
        what = "function" if ":" in key else "file"
        if key not in listed:
            failures.append(f"{key}: {what} of {size} lines, over {limit} (split it)")
        elif size > listed[key]:
            failures.append(f"{key}: {what} grew to {size} lines from {listed[key]} (over {limit}: split it, do not grow it)")
    for key in sorted(set(listed) - set(found)):
        notes.append(f"{key} is within the limits now: take it off the list")
    return failures, notes


def self_test():
    """The check fails on a long function and a long file, and not on short code."""
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "harness"))
        body = "\n".join(f"  x += {i};" for i in range(MAX_FUNCTION_LINES))
        with open(os.path.join(tmp, "harness", "long.cpp"), "w") as f:
            f.write("namespace a {\nint f(int x) {\n" + body + "\n  return x;\n}\n"
                    "int g() { return 1; }\n}  // namespace a\n" + "\n" * MAX_FILE_LINES)
        with open(os.path.join(tmp, "harness", "ok.py"), "w") as f:
            f.write("def h():\n    return 1\n")
        found = offenders(tmp)
        want = {"harness/long.cpp", "harness/long.cpp:f"}
        if set(found) != want:
            return f"made-up sources: found {sorted(found)}, expected {sorted(want)}"
        if not compare(found, {})[0]:
            return "made-up offenders were not reported as failures"
    return None


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    problem = self_test()
    if problem:
        print(f"FAILED: the check itself: {problem}")
        return 1
    root, ratchet = sys.argv[1], sys.argv[2]
    found = offenders(root)
    failures, notes = compare(found, read_ratchet(ratchet))
    for key, size in sorted(found.items()):
        print(f"over the limit: {key} ({size} lines)")
    for n in notes:
        print(f"FAILED: {n}")
    for f in failures:
        print(f"FAILED: {f}")
    if failures or notes:
        return 1
    print(f"{len(found)} offender(s), none new and none grown (files <= {MAX_FILE_LINES} lines, "
          f"functions <= {MAX_FUNCTION_LINES})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
