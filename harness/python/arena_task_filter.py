#!/usr/bin/env python3
"""Runs arena-task-filter from libarena_tools.so inside a Python that has PyTorch, so that a
torch2hip task's oracle (reference.py, "py:torch:oracle:<task folder>") serves its checks on the
CPU, exactly as the Python host serves the correctness gate.

    arena_task_filter.py <libarena_tools.so> --task <task.json> --reference py:torch:oracle:<dir> [options...]

The first of this interpreter, $ARENA_PYTHON and /usr/bin/python3 that imports torch and numpy
runs it; exit status 77 (skipped) when none does."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _usable(python):
    return subprocess.run([python, "-c", "import torch, numpy"], capture_output=True).returncode == 0


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        import numpy  # noqa: F401
        import torch  # noqa: F401
    except ImportError as e:
        here = os.path.realpath(sys.executable)
        for py in (os.environ.get("ARENA_PYTHON", ""), "/usr/bin/python3"):
            if py and os.path.isfile(py) and os.path.realpath(py) != here and _usable(py):
                sys.stdout.flush()
                os.execv(py, [py, os.path.abspath(__file__)] + argv[1:])
        print(f"SKIPPED: the task filter needs PyTorch and numpy for reference.py, and no Python here imports "
              f"them ({sys.executable}: {e}; also tried $ARENA_PYTHON and /usr/bin/python3)", flush=True)
        return 77
    sys.dont_write_bytecode = True
    sys.path.insert(0, HERE)
    import arena_host
    return arena_host.main([argv[0], argv[1], "arena-task-filter"] + argv[2:])


if __name__ == "__main__":
    os._exit(main(sys.argv))
