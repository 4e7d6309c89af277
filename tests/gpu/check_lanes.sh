#!/usr/bin/env bash
# lanes.sh and resource_spec_subset.py without a GPU: DRY=1 prints each lane's command and spec
# from a made-up four-GPU spec; bad lanes and unknown GPU ids are refused before anything runs.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAILED: $*"; exit 1; }
cat >"$tmp/spec.json" <<'JSON'
{"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "0", "slots": 70}, {"id": "1", "slots": 70},
 {"id": "2", "slots": 70}, {"id": "3", "slots": 70}], "perf_gpus": [{"id": "0", "slots": 1}, {"id": "3", "slots": 1}]}]}
JSON
python3 "$here/resource_spec_subset.py" "$tmp/spec.json" "$tmp/one.json" 3 || fail "subset 3"
python3 - "$tmp/one.json" <<'PY' || fail "subset 3 holds the wrong GPUs"
import json, sys
s = json.load(open(sys.argv[1]))["local"][0]
assert [g["id"] for g in s["gpus"]] == ["3"] and [g["id"] for g in s["perf_gpus"]] == ["3"], s
PY
python3 "$here/resource_spec_subset.py" "$tmp/spec.json" "$tmp/x.json" 1,7 2>"$tmp/err" && fail "GPU 7 accepted"
grep -q "GPU id(s) 7 not in the spec" "$tmp/err" || fail "no message for GPU 7: $(cat "$tmp/err")"

out=$(DRY=1 SPEC="$tmp/spec.json" OUT="$tmp/out" bash "$here/lanes.sh" \
  'speed|0|0-15|330|-L ^hip2hip$ -j 16' 'timed|1,2|16-47|400|-R ^selftest/.*/solution_faster$ -j 8' 2>&1) ||
  fail "dry run: $out"
echo "$out"
grep -q "lane speed: taskset -c 0-15 ctest .*--resource-spec-file $tmp/out/spec-speed.json .*-L ^hip2hip\$ -j 16" <<<"$out" ||
  fail "speed lane's command"
grep -q 'lane timed spec: .*"gpus": \[{"id": "1", "slots": 70}, {"id": "2", "slots": 70}\]' <<<"$out" || fail "timed lane's spec"
grep -q "lane timed: -R without -FA" <<<"$out" || fail "no note on fixtures for -R without -FA"
grep -q "lane speed: -R without" <<<"$out" && fail "fixture note on a lane without -R"

for bad in 'x|0|0-15|abc|-L a' 'x|0,|0-15|10|-L a' 'x|0|zero|10|-L a' 'x|0|0-15|10|' 'x y|0|0-15|10|-L a'; do
  DRY=1 SPEC="$tmp/spec.json" OUT="$tmp/out" bash "$here/lanes.sh" "$bad" >"$tmp/err" 2>&1 && fail "lane '$bad' accepted"
  grep -q "^lane " "$tmp/err" || fail "lane '$bad' refused without saying why: $(cat "$tmp/err")"
done
DRY=1 SPEC="$tmp/spec.json" OUT="$tmp/out" bash "$here/lanes.sh" 'a|0|0|1|-L x' 'a|1|1|1|-L y' >"$tmp/err" 2>&1 &&
  fail "two lanes of one name accepted"
echo "lanes: dry run and refusals as expected"
