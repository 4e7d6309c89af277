#!/usr/bin/env python3
"""A production baseline's package, found where it is installed without importing it
(docs/DESIGN.md, "Production baselines"): the source file of each module a task names, the
installed version checked against the task's pin, and the license files of its distribution.
Nothing is imported, so the compile gate and the workspace copy work on machines where the
package's own imports (PyTorch, a GPU) are missing.

    arena_package.py copy --name N --version V --dest DIR MODULE...
        copies each module's installed source, and the distribution's license and notice
        files, under DIR/<N>-<V>/ (module paths kept); exit 1 naming what is missing."""
import argparse
import os
import re
import shutil
import sys


class PackageError(Exception):
    pass


def _search_path(path=None):
    return [p for p in (path if path is not None else sys.path) if p and os.path.isdir(p)]


def module_file(module, path=None):
    """The source file of a module (`a.b.c` -> .../a/b/c.py or .../a/b/c/__init__.py)."""
    rel = module.replace(".", os.sep)
    for root in _search_path(path):
        for candidate in (os.path.join(root, rel + ".py"), os.path.join(root, rel, "__init__.py")):
            if os.path.isfile(candidate):
                return os.path.realpath(candidate)
    raise PackageError(f"module {module} is not installed for this Python ({sys.executable}): "
                       f"install the suite's pinned requirements (suites/<suite>/requirements.txt)")


def _normalized(name):
    return re.sub(r"[-_.]+", "_", name).lower()


def dist_info(name, path=None):
    """(folder, installed version) of a distribution's metadata, by its PyPI name."""
    want = _normalized(name)
    for root in _search_path(path):
        for entry in sorted(os.listdir(root)):
            if not entry.endswith(".dist-info"):
                continue
            dist, _, version = entry[:-len(".dist-info")].rpartition("-")
            if _normalized(dist) == want:
                return os.path.join(root, entry), version
    raise PackageError(f"package {name} is not installed for this Python ({sys.executable})")


def checked_version(name, version, path=None):
    """The metadata folder of the installed distribution, which must be the pinned version."""
    folder, installed = dist_info(name, path)
    if installed != version:
        raise PackageError(f"package {name} is installed at version {installed}, but the task pins {version}: "
                           f"install the suite's pinned requirements")
    return folder


def license_files(folder):
    """License and notice files of an installed distribution (PEP 639's licenses/ or the top)."""
    out = []
    for sub in (os.path.join(folder, "licenses"), folder):
        if os.path.isdir(sub):
            out += [os.path.join(sub, f) for f in sorted(os.listdir(sub))
                    if re.match(r"(LICEN[CS]E|NOTICE|COPYING)", f, re.I) and os.path.isfile(os.path.join(sub, f))]
    return out


def copy_sources(name, version, modules, dest, path=None):
    """Copies the named modules' sources and the license files; returns the files written."""
    folder = checked_version(name, version, path)
    licenses = license_files(folder)
    if not licenses:
        raise PackageError(f"package {name} {version}: no license file in {folder}")
    root = os.path.join(dest, f"{name}-{version}")
    written = []
    for m in modules:
        src = module_file(m, path)
        rel = m.replace(".", os.sep) + (os.sep + "__init__.py" if src.endswith("__init__.py") else ".py")
        out = os.path.join(root, rel)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        shutil.copyfile(src, out)
        written.append(out)
    for f in licenses:
        out = os.path.join(root, os.path.basename(f))
        shutil.copyfile(f, out)
        written.append(out)
    return written


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("copy")
    c.add_argument("--name", required=True)
    c.add_argument("--version", required=True)
    c.add_argument("--dest", required=True)
    c.add_argument("modules", nargs="+")
    a = p.parse_args(argv)
    try:
        for f in copy_sources(a.name, a.version, a.modules, a.dest):
            print(f)
    except (PackageError, OSError) as e:
        print(f"arena_package: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
