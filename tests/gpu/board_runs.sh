#!/usr/bin/env bash
# On a GPU machine: two agent runs of 5 hip2hip tasks each, the replay agent and a command agent
# (tests/gpu/board_agent.sh: check, edit, check, profile), scored and put on one board, then
# checked: every check the command agent made is on its trajectory pages, the replay agent
# (which runs no check) has empty ones, and the site passes the browser test.
#
#   tests/gpu/board_runs.sh            (after tests/gpu/evidence.sh build: uses build/gpu)
#
# BUILD names another build folder (configured here as the runs need), SPEC a resource spec
# file for its ctest runs (default: the one configure wrote), e.g. one GPU of several while
# other work runs on the rest.
#
# Writes $OUT (default gpu-evidence)/board/ (the site) and board-runs.log.
set -uo pipefail
cd "$(dirname "$0")/../.."
[ -d .deps/usr/bin ] && export PATH="$PWD/.deps/usr/bin:$PATH"
out=${OUT:-gpu-evidence}
mkdir -p "$out"
out=$(cd "$out" && pwd)
build=${BUILD:-build/gpu}
spec=${SPEC:-arena_resources.json}
tasks='^hip2hip/(gelu_f16|gemm_f32|reduce_sum|softmax_rows|transpose_2d)/'
results="$out/board-results"
rm -rf "$results" "$out/board"
for agent in replay command; do
  cmake -S . -B $build -DARENA_AGENT=$agent -DARENA_AGENT_SCRIPT="$PWD/tests/gpu/board_agent.sh" -DARENA_CANDIDATE= \
    -DARENA_AGENT_SANDBOX=ON -DARENA_AGENT_REDO=ON -DARENA_RUN_NAME=board-$agent >>"$out/board-runs.log" 2>&1 ||
    { tail -40 "$out/board-runs.log"; exit 1; }
  cmake --build $build -j "$(nproc)" >>"$out/board-runs.log" 2>&1 || { tail -40 "$out/board-runs.log"; exit 1; }
  rm -rf $build/arena/results $build/Testing
  (cd $build && ctest -T Test --no-compress-output --resource-spec-file "$spec" -R "$tasks" -j 4) \
    >>"$out/board-runs.log" 2>&1
  $build/harness/score/arena-score $build --run board-$agent --results-dir "$results" || exit 1
done
cmake -S . -B $build -DARENA_AGENT= -DARENA_AGENT_SCRIPT= >>"$out/board-runs.log" 2>&1
$build/harness/score/arena-score board "$results" --out "$out/board" || exit 1
python3 - "$out/board/board.json" "$build/arena/board-command" <<'PY' || exit 1
import json, os, sys
board = json.load(open(sys.argv[1]))
runs = {r["run"]: r for r in board["runs"]}
bad = []
for tid, t in runs["board-command"]["tasks"].items():
    made = int(open(os.path.join(sys.argv[2], tid, "workspace", "calls.txt")).read())
    got = [c for c in t["context"].get("checks", []) if "script" in c]
    print(f"board-command {tid}: {made} calls made, {len(got)} recorded:",
          [(c["script"], c["exit"], c["stage"], c.get("correct"), c.get("speedup")) for c in got])
    if len(got) != made or [c["script"] for c in got][:2] != ["check", "check"]:
        bad.append(tid)
for tid, t in runs["board-replay"]["tasks"].items():
    n = len(t["context"].get("checks", []))
    print(f"board-replay {tid}: {n} checks (the replay agent runs none)")
    if n or not t["context"].get("checks_kept"):
        bad.append("replay " + tid)
print("FAILED: " + ", ".join(bad) if bad else "every check recorded")
sys.exit(1 if bad else 0)
PY
# The pages in Chromium where it is installed (exit 77 otherwise): no script errors, screenshots.
python3 tests/score/board/check_browser.py "$out/board" "$out/board-browser" --any-board
rc=$?
[ $rc = 0 ] || [ $rc = 77 ] || exit 1
echo "board: $out/board/index.html; screenshots: $out/board-browser/screenshots/"
