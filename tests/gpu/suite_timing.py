#!/usr/bin/env python3
"""Where a suite run's time goes, from CTest's progress lines and the gates' result JSON.

  suite_timing.py <ctest log with a time stamp before each line> <results dir>

The log is `ctest` (not -V) piped through a time stamper: "<unix seconds> <line>". A test
starts at its "Start N: name" line and ends at its "N/M Test #N: name ... sec" line. Prints
the wall time, time per gate kind, how busy each GPU was, what the correctness gates spent
waiting on the host (inputs and the double-precision oracle), their phases summed (where the
gate's own time goes, and how much of CTest's time lies outside the gate's process from exec
to its result file), and the bounds that no amount of parallelism beats: the longest task
chain and the perf gates on one GPU each. Task validation's results (selftest/...) count too.
"""
import collections
import glob
import json
import os
import re
import statistics
import sys

START = re.compile(r"^(\d+\.\d+)\s+Start\s+(\d+): (\S+)")
END = re.compile(r"^(\d+\.\d+)\s+\d+/\d+ Test\s+#(\d+): (\S+) \.+\s*\**(\S.*?)\s+([\d.]+) sec")


def read_tests(log):
    tests = {}
    for line in open(log, errors="replace"):
        m = START.match(line)
        if m:
            name = m.group(3)
            tests[name] = {"start": float(m.group(1)), "task": name.rsplit("/", 1)[0], "kind": name.rsplit("/", 1)[1]}
            continue
        m = END.match(line)
        if m and m.group(3) in tests:
            t = tests[m.group(3)]
            t["end"], t["status"], t["seconds"] = float(m.group(1)), m.group(4), float(m.group(5))
    missing = [n for n, t in tests.items() if "end" not in t]
    if missing:
        sys.exit(f"{log}: {len(missing)} test(s) started but never ended, e.g. {missing[0]}")
    if not tests:
        sys.exit(f"{log}: no time-stamped 'Start N: name' lines (was ctest run with -V?)")
    return tests


def attach_results(tests, results):
    """GPU, host-wait seconds and phases per gate from <results>/[selftest/]<suite>/<task>/<gate>.json."""
    for f in glob.glob(os.path.join(results, "*", "*", "*.json")) + glob.glob(
            os.path.join(results, "selftest", "*", "*", "*.json")):
        if f.endswith(".gbench.json"):
            continue
        name = os.path.relpath(f, results)[:-5].replace(os.sep, "/")
        t = tests.get(name)
        if t is None:
            continue
        j = json.load(open(f))
        if isinstance(j.get("device"), dict) and "id" in j["device"]:
            t["gpu"] = j["device"]["id"]
        configs = j.get("configs") or []
        if configs and all("host_wait_seconds" in c for c in configs):
            t["host_wait"] = sum(c["host_wait_seconds"] for c in configs)
        if isinstance(j.get("phases"), dict) and "oracle" in j:  # a correctness gate's (perf.json has its own)
            t["phases"] = j["phases"]


def union_seconds(intervals):
    total, end = 0.0, None
    for a, b in sorted(intervals):
        if end is None or a > end:
            total += b - a
            end = b
        elif b > end:
            total += b - end
            end = b
    return total


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    tests = read_tests(sys.argv[1])
    attach_results(tests, sys.argv[2])
    t0 = min(t["start"] for t in tests.values())
    wall = max(t["end"] for t in tests.values()) - t0
    kinds = collections.defaultdict(list)
    for t in tests.values():
        kinds[t["kind"]].append(t)
    busy = sum(t["end"] - t["start"] for t in tests.values())
    print(f"tests: {len(tests)}, wall {wall:.1f} s, test time {busy:.1f} s (on average {busy / wall:.2f} at once)")
    print(f"{'gate':16s} {'n':>4s} {'mean s':>8s} {'median s':>9s} {'max s':>8s} {'total s':>9s} {'share':>6s}")
    for kind, ts in sorted(kinds.items(), key=lambda kv: -sum(t["seconds"] for t in kv[1])):
        s = [t["seconds"] for t in ts]
        print(f"{kind:16s} {len(s):4d} {statistics.mean(s):8.2f} {statistics.median(s):9.2f} {max(s):8.2f} "
              f"{sum(s):9.1f} {sum(s) / busy:6.1%}")
    statuses = collections.Counter(t["status"] for t in tests.values())
    print("outcomes:", dict(statuses))
    # A stamp is taken when CTest prints the line; a large gap means its output was held back.
    skew = max(abs(t["end"] - t["start"] - t["seconds"]) for t in tests.values())
    print(f"largest gap between stamped and reported test time: {skew:.2f} s")

    waits = [(t["host_wait"], t["seconds"]) for t in tests.values() if "host_wait" in t]
    if waits:
        print(f"correctness gates waiting on host inputs and oracle: {sum(w for w, _ in waits):.1f} s "
              f"of {sum(s for _, s in waits):.1f} s ({sum(w for w, _ in waits) / sum(s for _, s in waits):.1%})")
    phased = [t for t in tests.values() if t.get("phases")]
    if phased:
        sums = collections.Counter()
        for t in phased:
            sums.update(t["phases"])
        ctest_s = sum(t["seconds"] for t in phased)
        print(f"correctness gates' phases, summed over {len(phased)} gate(s) ({ctest_s:.1f} s by CTest):")
        for k, v in sorted(sums.items(), key=lambda kv: -kv[1]):
            print(f"  {k:38s} {v:9.1f} s")
        whole = [t for t in phased if "total_s" in t["phases"]]
        if whole:
            outside = sum(t["seconds"] - t["phases"]["total_s"] for t in whole)
            print(f"  outside the gate's process (CTest's time minus total_s: exit, CTest): {outside:.1f} s over "
                  f"{len(whole)} gate(s)")
    for gpu in sorted({t["gpu"] for t in tests.values() if "gpu" in t}):
        on = [t for t in tests.values() if t.get("gpu") == gpu]
        perf = [t for t in on if t["kind"] == "perf"]
        print(f"gpu {gpu}: {len(on)} gates, busy {union_seconds([(t['start'], t['end']) for t in on]) / wall:.1%} of the "
              f"wall time, perf gates {sum(t['seconds'] for t in perf):.1f} s")

    # correct_seen and correct_unseen may run at once; everything else of a task runs in order.
    chains, correct = collections.defaultdict(float), collections.defaultdict(float)
    for t in tests.values():
        if t["kind"].startswith("correct_"):
            correct[t["task"]] = max(correct[t["task"]], t["seconds"])
        else:
            chains[t["task"]] += t["seconds"]
    for task, s in correct.items():
        chains[task] += s
    longest = max(chains.items(), key=lambda kv: kv[1])
    print(f"longest task chain (compile, slower correctness gate, perf): {longest[0]} {longest[1]:.1f} s")
    gpus = len({t["gpu"] for t in tests.values() if "gpu" in t}) or 1
    perf_total = sum(t["seconds"] for t in kinds.get("perf", []))
    print(f"perf gates, one per GPU at a time: at least {perf_total / gpus:.1f} s on {gpus} GPU(s)")
    last = sorted(tests.items(), key=lambda kv: kv[1]["end"])[-3:]
    print("last to finish:", ", ".join(f"{n} ({t['start'] - t0:.0f}-{t['end'] - t0:.0f} s)" for n, t in last))


if __name__ == "__main__":
    main()
