#!/usr/bin/env bash
# Where a correctness gate's time goes (docs/DESIGN.md, "Correctness"), on the CPU: the oracle
# cache fill prints the phases it ran (drawing inputs, the oracle computed, then read from the
# cache), and a gate's result file carries a "phases" object from its start (here, without a GPU,
# the skipped result; on a GPU machine, the gate's error on a missing candidate).
#   check_correct_phases.sh <arena-correct> <task.json> <reference.so> <work dir>
set -uo pipefail
correct=$1 task=$2 reference=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAILED: $*"; exit 1; }

fill() {  # name: the run's phases line
  "$correct" --only oracle --task "$task" --reference "$reference" --set unseen --fuzz-seed 5 --trials 2 \
    --oracle-cache "$work/cache" >"$work/$1.log" 2>&1 || { cat "$work/$1.log"; fail "$1: arena-correct exited $?"; }
  grep "^phases: " "$work/$1.log" || fail "$1: no phases line in its output"
}
phase() {  # line, name -> seconds
  sed -nE "s/.*[ ,]$2 ([0-9.]+) s.*/\1/p" <<<"$1"
}
positive() { awk -v v="$1" 'BEGIN { exit !(v > 0) }'; }

first=$(fill first)
for p in process_start_s judge_setup_s configs_s draw_inputs_thread_s oracle_computed_thread_s oracle_cache_read_thread_s \
         oracle_cache_write_thread_s oracle_wait_for_other_gate_thread_s; do
  [ -n "$(phase "$first" $p)" ] || fail "first fill: no $p in '$first'"
done
grep -q "^oracle cache: 0 hit(s), [1-9][0-9]* computed" "$work/first.log" || fail "the first fill computed nothing"
positive "$(phase "$first" configs_s)" || fail "the first fill took no time over its configurations: '$first'"
# A second fill reads every entry: the oracle's clock stays at zero.
again=$(fill again)
grep -q "^oracle cache: [1-9][0-9]* hit(s), 0 computed" "$work/again.log" || fail "the second fill computed the oracle"
[ "$(phase "$again" oracle_computed_thread_s)" = "0.000" ] || fail "the second fill counts oracle time: '$again'"
echo "fill: $first"
echo "again: $again"

# A gate's result: the phases from the process's start to where it stopped.
result=$work/correct_seen.json
"$correct" --task "$task" --reference "$reference" --candidate "$work/no_such_kernel.so" --baseline "$work/no_such_kernel.so" \
  --set seen --oracle-cache "$work/cache" --result "$result" >"$work/gate.log" 2>&1
rc=$?
[ -f "$result" ] || { cat "$work/gate.log"; fail "the gate (exit $rc) wrote no result"; }
python3 - "$result" <<'PY' || fail "the result's phases are not as expected"
import json, sys
r = json.load(open(sys.argv[1]))
ph = r.get("phases")
assert isinstance(ph, dict), f"no phases object in {sys.argv[1]}: {sorted(r)}"
for k in ("process_start_s", "judge_setup_s"):
    assert k in ph and isinstance(ph[k], (int, float)) and 0 <= ph[k] < 600, f"phases.{k} is {ph.get(k)!r}"
print(f"gate result ({r['status']}): phases {ph}")
PY
echo "PASSED"
