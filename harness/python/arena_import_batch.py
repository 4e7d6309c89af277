"""arena-import-kernelbench --batch: every problem file of one or more folders (a KernelBench
checkout's level1/, level2/), each imported in its own process with a time limit, then one
report: how many were imported, and each problem that was not, with the importer's reason.

    arena-import-kernelbench --batch <folder>... --out DIR [--timeout-s 120] [--jobs N]
                             [--stop-after-s S] [--report FILE] [--min-imported N]...

The tasks go to DIR/<name>/ as a single import writes them; the report (Markdown) goes to
--report (default DIR/IMPORT_REPORT.md) and its summary to the terminal. --min-imported N
(once per folder, in order) makes the exit status 1 when a folder imports fewer. --stop-after-s S
starts no import after S seconds of the batch: the problems left are reported as not attempted
(a run that must end in time, e.g. tests/gpu/import-kernelbench.sh), and one still running then is
stopped and reported as not finished. Each import gets its share of the CPU cores as threads
(cores // jobs) and, where PyTorch sees several GPUs, one of them in turn."""
import argparse
import concurrent.futures
import contextlib
import os
import queue
import re
import subprocess
import sys
import time

from arena_kernelbench.common import sanitize  # noqa: E402
from arena_kernelbench.resources import child_env, threads_per_job, visible_gpus  # noqa: E402

PROG = "arena-import-kernelbench"


def problems_in(folder):
    def number(f):
        m = re.match(r"(\d+)_", f)
        return (int(m.group(1)) if m else 1 << 30, f)
    return [os.path.join(folder, f) for f in sorted(os.listdir(folder), key=number)
            if f.endswith(".py") and not f.startswith("_")]


def probe_place():
    """Where the imports will run their probes (arena_kernelbench.probe.probe_device), and how
    many GPUs they can be spread over (0 for the CPU)."""
    try:
        from arena_kernelbench.probe import probe_device, probe_device_name
        import torch
        return probe_device_name(), (torch.cuda.device_count() if probe_device() == "cuda" else 0)
    except ImportError:  # no PyTorch here: each import says so itself
        return "the CPU", 0


NOT_ATTEMPTED = "not attempted: the batch's --stop-after-s time had passed"
CUT_OFF = "not finished: the batch's --stop-after-s time passed during its import"


class Slots:
    """One slot per concurrent import: slot i gets GPU i modulo the GPUs (the imports spread over
    them), and every import its share of the CPU threads (resources.threads_per_job)."""

    def __init__(self, jobs, gpus):
        self.threads = threads_per_job(jobs)
        self.gpus = visible_gpus(gpus) if gpus else None
        self.free = queue.Queue()
        for i in range(jobs):
            self.free.put(i)

    @contextlib.contextmanager
    def env(self):
        slot = self.free.get()
        try:
            yield child_env(self.threads, self.gpus[slot % len(self.gpus)] if self.gpus else None)
        finally:
            self.free.put(slot)


def import_one(tool, problem, out, timeout_s, extra, where="the CPU", stop_at=None, slots=None):
    """(problem, imported, reason or the task folder, seconds)."""
    t0 = time.time()
    if stop_at is not None and t0 >= stop_at:
        return problem, False, NOT_ATTEMPTED, 0.0
    # No import runs past the batch's end: one cut off there is not finished, not refused.
    limit = timeout_s if stop_at is None else min(timeout_s, stop_at - t0)
    wrote = os.path.join(out, sanitize(os.path.splitext(os.path.basename(problem))[0]))
    new_task = "--name" not in extra and not os.path.exists(wrote)
    try:
        with (slots.env() if slots else contextlib.nullcontext(None)) as env:
            r = subprocess.run([sys.executable, tool, problem, "--out", out] + extra, capture_output=True,
                               text=True, timeout=limit, env=env)
    except subprocess.TimeoutExpired:
        # Stopped after it published its task (an atomic rename, its last step) but before it
        # said so: the task is whole, and imported.
        if new_task and os.path.isfile(os.path.join(wrote, "task.json")):
            return problem, True, wrote, time.time() - t0
        if limit < timeout_s:
            return problem, False, CUT_OFF, time.time() - t0
        return problem, False, f"took longer than {timeout_s:g} s (probing the model on {where})", time.time() - t0
    text = (r.stdout + r.stderr).strip().splitlines()
    if r.returncode == 0:
        wrote = next((line.split("wrote ", 1)[1].split(" (")[0] for line in text if "wrote " in line), "")
        return problem, True, wrote, time.time() - t0
    prefix = f"{PROG}: {problem}: "
    reasons = [line[len(prefix):] if line.startswith(prefix) else line for line in text
               if not line.startswith(f"{PROG}: wrote")]
    reason = next((x for x in reversed(reasons) if not x.startswith("warning:")), "") or f"exit {r.returncode}"
    return problem, False, reason, time.time() - t0


def main(argv):
    p = argparse.ArgumentParser(prog=f"{PROG} --batch")
    p.add_argument("folders", nargs="+")
    p.add_argument("--out", required=True)
    p.add_argument("--timeout-s", type=float, default=120)
    p.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2))
    p.add_argument("--stop-after-s", type=float, default=None)
    p.add_argument("--report", default=None)
    p.add_argument("--min-imported", type=int, action="append", default=[])
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    a = p.parse_args(argv)
    tool = os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "tools", "arena-import-kernelbench")
    if a.jobs < 1:
        print(f"{PROG}: --jobs {a.jobs}: want at least 1", file=sys.stderr)
        return 2
    where, gpus = probe_place()
    slots = Slots(a.jobs, gpus)
    stop_at = None if a.stop_after_s is None else time.time() + a.stop_after_s
    spread = f" over {len(slots.gpus)} GPU(s)" if slots.gpus and len(slots.gpus) > 1 else ""
    print(f"{PROG}: the models run on {where}{spread} for their probes, {a.jobs} import(s) at a time, "
          f"{slots.threads} CPU thread(s) each")
    extra = [x for s in a.set for x in ("--set", s)]
    os.makedirs(a.out, exist_ok=True)
    lines, failed_floor = [f"# KernelBench import report\n", f"Importer run on {', '.join(a.folders)}; "
                                                               f"{a.timeout_s:.0f} s a problem, {a.jobs} at a "
                                                               f"time, {slots.threads} CPU thread(s) each; "
                                                               f"probes on {where}{spread}.\n"], False
    for i, folder in enumerate(a.folders):
        if not os.path.isdir(folder):
            print(f"{PROG}: {folder}: not a folder", file=sys.stderr)
            return 2
        probs = problems_in(folder)
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            results = list(pool.map(lambda f: import_one(tool, f, a.out, a.timeout_s, extra, where, stop_at, slots),
                                    probs))
        ok = [r for r in results if r[1]]
        skipped = [r for r in results if not r[1] and r[2] == NOT_ATTEMPTED]
        cut = [r for r in results if not r[1] and r[2] == CUT_OFF]
        refused = [r for r in results if not r[1] and r[2] not in (NOT_ATTEMPTED, CUT_OFF)]
        tail = (f", {len(cut)} not finished" if cut else "") + \
            (f", {len(skipped)} not attempted" if skipped else "") + (" (--stop-after-s)" if cut or skipped else "")
        head = f"{folder}: {len(ok)} of {len(probs)} imported, {len(refused)} refused" + tail
        print(f"{PROG}: {head}")
        lines += [f"\n## {os.path.basename(os.path.normpath(folder))}: {len(ok)} of {len(probs)} imported"
                  + tail + "\n",
                  "| problem | refused because |", "|---|---|"]
        for prob, _, why, _ in refused + cut + skipped:
            name = os.path.basename(prob)
            print(f"  refused {name}: {why}" if why not in (NOT_ATTEMPTED, CUT_OFF) else
                  f"  {why.split(':')[0]} {name}")
            lines.append(f"| {name} | {why.replace('|', '/')} |")
        if i < len(a.min_imported) and len(ok) < a.min_imported[i]:
            print(f"FAILED: {folder}: {len(ok)} imported, fewer than {a.min_imported[i]}")
            failed_floor = True
    report = a.report or os.path.join(a.out, "IMPORT_REPORT.md")
    with open(report, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{PROG}: report written to {report}")
    return 1 if failed_floor else 0
