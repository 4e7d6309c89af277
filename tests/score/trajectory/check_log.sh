#!/bin/bash
# The check log of an agent's workspace end to end: cmake/agent/check.sh.in and profile.sh.in
# configured with stand-in gate commands, run by a scripted agent under arena-run-agent
# --check-log. Every call must be recorded outside the workspace with what the runner saw
# (the candidate's bytes, the self-check's results), and the agent's attempt to rewrite the
# log from inside its workspace must not reach it.
#   check_log.sh <arena-run-agent> <source dir> <work dir>
set -u
RUN_AGENT=$1 SRC=$2 WORK=$3
fail() { echo "FAILED: $*"; exit 1; }
rm -rf "$WORK" && mkdir -p "$WORK/ws" "$WORK/tools" "$WORK/logs" || exit 1
ws="$WORK/ws"

# Stand-ins for the gates: compile passes unless the candidate says "broken"; correct passes
# unless it says "wrong"; perf reports the speedup written in the candidate.
cat > "$WORK/tools/fake_gate.sh" <<'GATE'
what=$1; shift
res=""
while [ $# -gt 0 ]; do [ "$1" = --result ] && res=$2; shift; done
case $what in
  compile) ! grep -q broken candidate.hip ;;
  correct) if grep -q wrong candidate.hip; then s=failed; p=1; else s=passed; p=3; fi
           printf '{"status":"%s","passed_configs":%d,"total_configs":3}\n' $s $p > "$res"; [ $s = passed ] ;;
  perf) x=$(sed -n 's/.*speedup=\([0-9.]*\).*/\1/p' candidate.hip)
        printf '{"status":"passed","speedup":%s,"ci95_low":%s,"ci95_high":%s,"verdict":"FASTER"}\n' "$x" "$x" "$x" > "$res" ;;
  profile) echo "profile report" ;;
esac
GATE
configure() {  # configure_file(@ONLY) with the stand-ins
  sed -e "s|@TOOLS@|$WORK/tools|" -e "s|@CANDIDATE_FILE@|candidate.hip|g" -e "s|@VERSUS@|the baseline|" \
      -e "s|@COMPILE@|sh \"\$T/fake_gate.sh\" compile|" -e "s|@CORRECT@|sh \"\$T/fake_gate.sh\" correct|" \
      -e "s|@PERF@|sh \"\$T/fake_gate.sh\" perf|" -e "s|@CANDIDATE_ARG@|x|g" -e "s|@JUDGE@||g" -e "s|@PERF_ARGS@||" \
      -e "s|@PROFILE_RUNNER@|x|" -e "s|@TASK_ID@|demo/task|" -e "s|@BASE_SIDE@|baseline=x|" "$1" > "$2"
}
configure "$SRC/cmake/agent/check.sh.in" "$ws/check.sh"
configure "$SRC/cmake/agent/profile.sh.in" "$ws/profile.sh"
printf 'echo "profile report"\n' > "$WORK/tools/arena-profile.sh"
echo "start speedup=1.0" > "$ws/candidate.hip"

# The agent: a broken first try, a wrong one, two correct ones (the second faster), a profile,
# then it forges a line, removes the pipe and checks once more (not recorded). (The log's folder
# is outside the workspace, which is all a sandboxed agent may write: cmake/ArenaSandbox.cmake.)
cat > "$WORK/agent.sh" <<'AGENT'
cd "$1"
echo "broken speedup=0.5" > candidate.hip; sh check.sh
echo "wrong speedup=0.9" > candidate.hip; sh check.sh
echo "fixed speedup=1.2" > candidate.hip; sh check.sh
echo "faster speedup=2.5" > candidate.hip; sh check.sh
sh profile.sh
printf '{"script":"check","exit":0,"stage":"done"}\n' > .check/log.fifo   # a forged line: recorded as received
rm -f .check/log.fifo
sh check.sh
echo "agent done"
AGENT
"$RUN_AGENT" --timeout-s 60 --log-dir "$WORK/logs" --workdir "$ws" --result "$WORK/agent.json" \
  --candidate candidate.hip --take-to "$WORK/candidate" --record agent=script --check-log "$ws/.check/log.fifo" \
  -- sh "$WORK/agent.sh" "$ws" > "$WORK/run.out" 2>&1 || fail "arena-run-agent exited $?: $(cat "$WORK/run.out")"
cat "$WORK/run.out"
log="$WORK/logs/checks.jsonl"
[ -f "$log" ] || fail "no $log"
cat "$log"
python3 - "$log" "$WORK/logs" <<'PY' || exit 1
import json, os, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
def fail(m): print("FAILED: " + m); sys.exit(1)
calls = [l for l in lines if "n" in l]
notes = [l for l in lines if "note" in l]
if len(calls) != 6: fail(f"expected 6 recorded calls (4 checks, 1 profile, 1 forged line), got {len(calls)}")
want = [("check", 1, "compile", False, None, None), ("check", 1, "correct", True, False, None),
        ("check", 0, "done", True, True, 1.2), ("check", 0, "done", True, True, 2.5),
        ("profile", 0, "done", True, None, None)]
for c, (script, rc, stage, compiled, correct, speedup) in zip(calls, want):
    got = (c.get("script"), c.get("exit"), c.get("stage"), c.get("compiled"), c.get("correct"), c.get("speedup"))
    if got != (script, rc, stage, compiled, correct, speedup):
        fail(f"call {c['n']}: got {got}, expected {(script, rc, stage, compiled, correct, speedup)}")
copies = [c.get("candidate_copy") for c in calls]
if len(set(copies[:4])) != 4: fail(f"each changed candidate gets its own copy: {copies}")
if open(os.path.join(sys.argv[2], copies[3])).read() != "faster speedup=2.5\n": fail("copy 4 is not the candidate of check 4")
if not notes or "removed" not in notes[-1]["note"]: fail("the removed pipe is not noted")
print("check log: OK")
PY
grep -q "self-checks recorded: 6" "$WORK/run.out" || fail "the runner does not report 6 recorded calls"
[ -e "$ws/.check/log.fifo" ] && fail "the pipe is left in the workspace"
echo "PASSED"
