#!/usr/bin/env python3
"""Checks the perf gate's times against Nsight Compute. For each task it runs the perf gate
(CTest pulls in the compile and correctness gates it needs), then launches baseline and
candidate on every seen configuration with the gate's inputs (arena-profile launch, clocks left
alone), --launches times each:
  - under ncu (gpu__time_duration summed over the launch's kernels);
  - under the gate's clock (arena-profile-trace --trace alternate): device events with the
    activity trace's kernel records off, less the events' overhead measured on launches with
    them on (event time minus span), as a replaying perf gate times.
It also measures both clocks on the backend's empty kernel. The two clocks start and stop at
different points of a launch: ncu's duration includes some of the GPU front end's work before
the grid starts and after it ends, which the trace's kernel records leave out. The empty
kernel's difference is that fixed offset. The gate times a launch as one span, first kernel's
start to last kernel's end, so the front end's work between its kernels is inside the span:
the offset comes off ncu's summed durations once per launch. Those corrected durations are
what the gate's times are compared with:
  - each side's median within 3 % or 1 us per kernel;
  - the gate's speedup within 2 % of the ratio of the offset-corrected ncu durations.
The raw ncu durations and ratios are printed and kept beside them.

    check_ncu_agreement.py --build <build dir> --ctest <ctest> [--out result.json]
                           [--cache-control gate|ncu] [--launches N] <suite/task>...

--cache-control gate (the default) has arena-profile sweep the caches before every launch as
the gate does (the gate's flush buffer and mode, from perf.json) and ncu leave them alone: both
clocks then time the kernel from the cache state the gate's samples start from. `ncu` lets ncu
flush and invalidate the caches itself, as a plain ncu run does.

Exit status 0 agree, 1 disagree, 77 no GPU or no ncu."""
import argparse
import csv
import glob
import io
import json
import os
import shutil
import statistics
import subprocess
import sys

SKIP = 77


def find_ncu():
    for c in [os.environ.get("ARENA_NCU"), shutil.which("ncu"), "/usr/local/cuda/bin/ncu",
              *sorted(glob.glob("/opt/nvidia/nsight-compute/*/ncu"))]:
        if c and os.access(c, os.X_OK):
            return c
    return None


def launch_args(task_file, kernel, config, gate_flush, launches):
    args = ["launch", "--kernel", kernel, "--launches", str(launches)]
    if kernel != "empty":
        args += ["--task", task_file, "--config", str(config)]
    if gate_flush:
        args += ["--flush-bytes", str(gate_flush[0]), "--flush-mode", str(gate_flush[1])]
    return args


def ncu_launch_us(ncu, profile_tool, args, launches, gate_flush):
    """(median over the launches of the launch's summed kernel durations in us, kernels per launch,
    median SM clock in MHz while they ran)."""
    cache = ["--cache-control", "none" if gate_flush else "all"]
    cmd = [ncu, "--clock-control", "none", *cache, "--profile-from-start", "off", "--csv", "--page", "raw",
           "--print-units", "base", "--metrics", "gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second",
           profile_tool, *args]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0 or '"ID"' not in p.stdout:
        raise RuntimeError(f"ncu failed (exit {p.returncode}): {p.stderr[-800:]}{p.stdout[-800:]}")
    rows = [r for r in csv.reader(io.StringIO(p.stdout[p.stdout.index('"ID"'):]))]
    col = rows[0].index("gpu__time_duration.sum")
    clock_col = rows[0].index("sm__cycles_elapsed.avg.per_second")
    values, clocks = [], []
    for r in rows[1:]:
        try:
            values.append(float(r[col].replace(",", "")))
            clocks.append(float(r[clock_col].replace(",", "")) / 1e6)
        except (ValueError, IndexError):
            continue  # the units row
    if not values or len(values) % launches:
        raise RuntimeError(f"ncu recorded {len(values)} kernel(s) for {launches} launch(es): {p.stdout[-800:]}")
    per = len(values) // launches
    sums = [sum(values[i * per:(i + 1) * per]) / 1e3 for i in range(launches)]
    return statistics.median(sums), per, statistics.median(clocks)


def gate_clock_us(trace_tool, args, launches):
    """(the gate's clock: median quiet event time less the events' overhead, the span with the
    tracer's kernel records on), in us, over `launches` launches of each kind."""
    alt = list(args)
    alt[alt.index("--launches") + 1] = str(2 * launches)  # half of them with the records on
    p = subprocess.run([trace_tool, *alt, "--trace", "alternate"], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{trace_tool} failed (exit {p.returncode}): {p.stderr[-800:]}")
    d = json.loads(p.stdout.strip().splitlines()[-1])
    events, spans = d["event_us"], d["span_us"]
    overhead = statistics.median(e - s for e, s in zip(events[0::2], spans[0::2]) if s > 0)
    return statistics.median(events[1::2]) - overhead, statistics.median(s for s in spans[0::2] if s > 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--ctest", default="ctest")
    ap.add_argument("--out")
    ap.add_argument("--no-run", action="store_true", help="use the perf gates' results already in the build")
    ap.add_argument("--cache-control", choices=["gate", "ncu"], default="gate",
                    help="gate: the gate's own cache sweep before each launch; ncu: ncu flushes the caches")
    ap.add_argument("--launches", type=int, default=5, help="launches measured per side and configuration")
    ap.add_argument("tasks", nargs="+")
    a = ap.parse_args()
    a.build = os.path.abspath(a.build)
    if not os.path.exists("/dev/nvidiactl"):
        print("SKIPPED: no NVIDIA GPU here (Nsight Compute needs one)")
        return SKIP
    ncu = find_ncu()
    if not ncu:
        print("SKIPPED: Nsight Compute (ncu) is not installed here (set ARENA_NCU)")
        return SKIP
    profile_tool = os.path.join(a.build, "harness", "arena-profile")
    trace_tool = os.path.join(a.build, "harness", "arena-profile-trace")
    regex = "^(" + "|".join(a.tasks) + ")/perf$"
    if not a.no_run:
        # The correctness gates these need run four at a time on the GPU; perf gates alone.
        spec = os.path.join(a.build, "arena_resources.json")
        p = subprocess.run([a.ctest, "-R", regex, "-j4", "--resource-spec-file", spec, "--output-on-failure"],
                           cwd=a.build, capture_output=True, text=True)
        if p.returncode != 0:
            print(f"the perf gates did not pass:\n{p.stdout[-3000:]}")
            return 1
    perfs = {t: json.load(open(os.path.join(a.build, "arena", "results", t, "perf.json"))) for t in a.tasks}
    flushes = {t: (p["method"]["flush_bytes"], p["method"].get("flush_mode", 0)) if a.cache_control == "gate" else None
               for t, p in perfs.items()}
    # The offset between the clocks: both on the empty kernel, after the same sweep.
    any_flush = next(iter(flushes.values()))
    empty = launch_args("", "empty", 0, any_flush, 50)
    empty_ncu, _, _ = ncu_launch_us(ncu, profile_tool, empty, 50, any_flush)
    empty_clock, empty_traced = gate_clock_us(trace_tool, empty, 50)
    offset = empty_ncu - empty_clock
    print(f"empty kernel: ncu {empty_ncu:.2f} us, gate's clock {empty_clock:.2f} us (traced span {empty_traced:.2f}):"
          f" ncu's offset {offset:+.2f} us per launch")
    rows, ok = [], True
    print(f"{'task':22} {'config':8} {'side':9} {'gate':>8} {'clock':>8} {'traced':>8} {'ncu':>8} {'ncu-off':>8} {'diff':>7}"
          f" | {'speedup':>7} {'ncu':>7} {'ncu-off':>7} {'diff':>7}")
    for task in a.tasks:
        perf = perfs[task]
        task_file = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tasks", task, "task.json")
        kdir = os.path.join(a.build, "arena", "kernels", task)
        sides = {"baseline": os.path.join(kdir, "baseline.so"), "candidate": os.path.join(kdir, "candidate.so")}
        for i, c in enumerate(perf["configs"]):
            got = {}
            for side, kernel in sides.items():
                args = launch_args(task_file, kernel, i, flushes[task], a.launches)
                ncu_us, kernels, mhz = ncu_launch_us(ncu, profile_tool, args, a.launches, flushes[task])
                clock_us, traced_us = gate_clock_us(trace_tool, args, a.launches)
                corrected = ncu_us - offset
                gate_us = c[side]["median_ms"] * 1e3
                agree = abs(gate_us - corrected) <= max(0.03 * corrected, 1.0 * kernels)
                ok &= agree
                got[side] = (ncu_us, corrected)
                rows.append({"task": task, "config": c["label"], "side": side, "gate_us": gate_us, "gate_clock_us": clock_us, "traced_span_us": traced_us,
                             "ncu_us": ncu_us, "ncu_corrected_us": corrected, "kernels": kernels, "sm_mhz": mhz,
                             "agree": agree})
                print(f"{task:22} {c['label']:8} {side:9} {gate_us:8.2f} {clock_us:8.2f} {traced_us:8.2f} {ncu_us:8.2f} {corrected:8.2f}"
                      f" {gate_us / corrected - 1:+7.2%} {mhz:5.0f} MHz" + ("" if agree else "  DISAGREES"))
            raw = got["baseline"][0] / got["candidate"][0]
            ratio = got["baseline"][1] / got["candidate"][1]
            sdiff = c["speedup"] / ratio - 1
            agree = abs(sdiff) <= 0.02
            ok &= agree
            rows.append({"task": task, "config": c["label"], "speedup": c["speedup"], "ncu_ratio": raw,
                         "ncu_corrected_ratio": ratio, "agree": agree})
            print(f"{task:22} {c['label']:8} {'':9} {'':8} {'':8} {'':8} {'':8} {'':8} {'':7}"
                  f" | {c['speedup']:7.4f} {raw:7.4f} {ratio:7.4f} {sdiff:+7.2%}" + ("" if agree else "  DISAGREES"))
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"device": next(iter(perfs.values())).get("device", {}).get("name"),
                       "cache_control": a.cache_control, "launches": a.launches,
                       "empty_kernel": {"ncu_us": empty_ncu, "gate_clock_us": empty_clock, "traced_span_us": empty_traced,
                                        "offset_us": offset},
                       "rows": rows, "agree": ok}, f, indent=1)
    print("agree" if ok else "DISAGREE")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
