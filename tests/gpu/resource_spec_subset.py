#!/usr/bin/env python3
"""Writes a CTest resource spec that holds only some GPUs of another: one lane of a GPU machine
for one ctest run, beside other runs on the other GPUs of the same build (tests/gpu/lanes.sh).

    resource_spec_subset.py <arena_resources.json> <out.json> <gpu ids, e.g. 0 or 1,2,3>

Every resource type of the spec (gpus, and perf_gpus under the shared or split schedule) keeps
the entries whose id is listed; a listed id that the spec does not have is an error, so a lane
never runs on fewer GPUs than it asked for without saying so."""
import json
import sys


def subset(spec, ids):
    local = spec["local"]
    if len(local) != 1:
        raise ValueError(f"expected one local resource set, found {len(local)}")
    have = {entry["id"] for entries in local[0].values() for entry in entries}
    missing = [i for i in ids if i not in have]
    if missing:
        raise ValueError(f"GPU id(s) {', '.join(missing)} not in the spec (it has {', '.join(sorted(have)) or 'none'})")
    kept = {kind: [e for e in entries if e["id"] in ids] for kind, entries in local[0].items()}
    return {"version": spec["version"], "local": [kept]}


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    ids = [x.strip() for x in argv[3].split(",") if x.strip()]
    if not ids:
        print("no GPU ids given", file=sys.stderr)
        return 2
    try:
        with open(argv[1]) as f:
            spec = json.load(f)
        out = subset(spec, ids)
    except (OSError, ValueError, KeyError, json.JSONDecodeError) as e:
        print(f"{argv[1]}: {e}", file=sys.stderr)
        return 1
    with open(argv[2], "w") as f:
        json.dump(out, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
