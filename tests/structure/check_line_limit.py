#!/usr/bin/env python3
"""A page stays short: README.md is the front door, reference material lives in docs/
(standard library only). Before the page, the check is shown to fail on a file one line too
long.

    check_line_limit.py <file> <most lines>"""
import os
import sys
import tempfile


def too_long(path, most):
    """A message when path has more than most lines, else None."""
    with open(path, encoding="utf-8") as f:
        lines = len(f.read().splitlines())
    if lines > most:
        return f"{path} has {lines} lines, more than {most}: move reference material to docs/"
    return None


def main():
    if len(sys.argv) != 3 or not sys.argv[2].isdigit():
        print("usage: check_line_limit.py <file> <most lines>")
        return 2
    path, most = sys.argv[1], int(sys.argv[2])
    failures = 0

    with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False) as f:
        f.write("line\n" * (most + 1))
    try:
        if too_long(f.name, most) and not too_long(f.name, most + 1):
            print(f"ok      a file of {most + 1} lines is refused, one of {most} is not")
        else:
            failures += 1
            print(f"FAILED: the check does not draw the line at {most} lines")
    finally:
        os.unlink(f.name)

    if not os.path.isfile(path):
        print(f"FAILED: {path} does not exist")
        return 1
    problem = too_long(path, most)
    if problem:
        failures += 1
        print("FAILED: " + problem)
    else:
        print(f"ok      {path} has at most {most} lines")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
