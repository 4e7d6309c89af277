#!/usr/bin/env bash
# The importer on KernelBench levels 1 and 2 on the GPU machine, then the imported tasks'
# baseline selftests (selftest/torch2hip/<task>/eager_correct: eager PyTorch in the task's dtypes
# against the float64 oracle): how many problems each level imports, and how many of those
# pass. Ends within BUDGET_S (default 510 s, under 9 minutes on 16 cores and one GPU): imports
# start until 55 % of it has passed (each at most IMPORT_TIMEOUT_S), the selftests until its
# end (ctest --stop-time); what had no time is counted as not run, never as passed.
#
#   tests/gpu/import-kernelbench.sh [KernelBench's problem folder]   (default .deps/kb/KernelBench,
#                                                                    holding level1/ and level2/)
# Environment: OUT (default gpu-evidence/kernelbench: tasks, import reports, logs), JOBS (imports
# at a time, default the core count less 2), TEST_JOBS (selftests at a time, default 8: the
# tasks keep KernelBench's sizes, up to gigabytes a tensor, and the oracle's float64 copies live
# in host memory), IMPORT_TIMEOUT_S (default 60), TEST_TIMEOUT_S (one selftest, default 120),
# BUDGET_S, ARENA_PYTHON (a Python with PyTorch).
# The build is build/gpu, as tests/gpu/evidence.sh makes it (its compiled harness is reused).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
t0=$(date +%s)
kb=${1:-.deps/kb/KernelBench}
out=${OUT:-gpu-evidence/kernelbench}
case $out in /*) ;; *) out=$PWD/$out ;; esac
budget=${BUDGET_S:-510}
jobs=${JOBS:-$(( $(nproc) > 3 ? $(nproc) - 2 : 1 ))}
python=${ARENA_PYTHON:-python3}
build=build/gpu
for level in level1 level2; do
  [ -d "$kb/$level" ] || { echo "FAILED: $kb/$level is not a folder (copy KernelBench's KernelBench/ folder to .deps/kb/)"; exit 1; }
done
"$python" -c "import torch" 2>/dev/null || { echo "FAILED: $python cannot import torch (set ARENA_PYTHON)"; exit 1; }
[ -d .deps/python ] && export PYTHONPATH="$PWD/.deps/python${PYTHONPATH:+:$PYTHONPATH}"
rm -rf "$out"
mkdir -p "$out/tasks/torch2hip"
tasks=$out/tasks
import_end=$(( t0 + budget * 55 / 100 ))

for level in level1 level2; do
  before=$(ls "$tasks/torch2hip")
  left=$(( import_end - $(date +%s) ))
  (( left < 0 )) && left=0
  "$python" harness/tools/arena-import-kernelbench --batch "$kb/$level" --out "$tasks/torch2hip" \
    --jobs "$jobs" --timeout-s "${IMPORT_TIMEOUT_S:-60}" --stop-after-s "$left" \
    --report "$out/IMPORT_REPORT-$level.md" >"$out/import-$level.log" 2>&1
  # The folders this level wrote: its tasks, for the per-level count of the selftests.
  comm -13 <(echo "$before") <(ls "$tasks/torch2hip") >"$out/tasks-$level.txt"
  grep -E "imported|refused" "$out/import-$level.log"
done
echo "imports done after $(( $(date +%s) - t0 )) s"

# Configure over the imported tasks and build what the selftests run (the harness only).
cmake -S . -B $build -DARENA_HIP_PLATFORM=nvidia -DARENA_SUITES=torch2hip -DARENA_BUILD_FRAMEWORK_TESTS=OFF \
  -DARENA_TASKS_DIR="$tasks" -DARENA_CANDIDATE=baseline >"$out/configure.log" 2>&1 ||
  { tail -30 "$out/configure.log"; echo "FAILED: configure over $tasks"; exit 1; }
cmake --build $build --parallel "$(nproc)" >"$out/build.log" 2>&1 ||
  { grep -B2 -A8 -E "error|FATAL" "$out/build.log" | head -40; echo "FAILED: build"; exit 1; }
echo "configured and built after $(( $(date +%s) - t0 )) s"

stop=$(date -d "@$(( t0 + budget ))" +%H:%M:%S)
(cd $build && ctest -L '^selftest$' -R '/eager_correct$' -j "${TEST_JOBS:-8}" --timeout "${TEST_TIMEOUT_S:-120}" \
  --stop-time "$stop" --resource-spec-file arena_resources.json) >"$out/ctest-eager_correct.log" 2>&1
for level in level1 level2; do
  n=$(grep -c . "$out/tasks-$level.txt")
  passed=0 failed=0
  while read -r task; do
    [ -n "$task" ] || continue
    line=$(grep -E "selftest/torch2hip/$task/eager_correct " "$out/ctest-eager_correct.log" | grep -E "Test +#" | tail -1)
    case $line in
      *" Passed"*) passed=$(( passed + 1 )) ;;
      "") ;;
      *) failed=$(( failed + 1 )); echo "  $level $task: ${line##*eager_correct }" >>"$out/eager_correct-failures.txt" ;;
    esac
  done <"$out/tasks-$level.txt"
  echo "$level: $(grep -oE '[0-9]+ of [0-9]+ imported' "$out/import-$level.log"), baseline correct (eager_correct) on" \
       "$passed of $n, failed on $failed, not run $(( n - passed - failed ))"
done
[ -f "$out/eager_correct-failures.txt" ] && cat "$out/eager_correct-failures.txt"
echo "the refusals: $out/IMPORT_REPORT-level1.md, $out/IMPORT_REPORT-level2.md; wall $(( $(date +%s) - t0 )) s"
