#!/usr/bin/env bash
# The importer on KernelBench levels 1 and 2 on the GPU machine, then the imported tasks'
# baseline selftests (selftest/torch2hip/<task>/eager_correct: eager PyTorch in the task's dtypes
# against the float64 oracle): how many problems each level imports, and how many of those
# pass. Ends within BUDGET_S (default 510 s, under 9 minutes): the imports have the first 50 %
# of it (level1 the first half of that, level2 the rest), and no import runs past its level's
# share (the batch's --stop-after-s: one cut off is "not finished", one never started "not
# attempted"); configure and build follow; the selftests have the rest, to its end (ctest
# --stop-time). A selftest that had no time, or that the budget's end cut off before its own
# limit, is counted as not run, never as passed or failed.
#
#   tests/gpu/import-kernelbench.sh [KernelBench's problem folder]   (default .deps/kb/KernelBench,
#                                                                    holding level1/ and level2/)
# Environment: OUT (default gpu-evidence/kernelbench: tasks, import reports, logs), JOBS (imports
# at a time, default 8 per GPU, at most the cores less 2: each gets cores / JOBS CPU threads and
# the GPUs in turn), TEST_JOBS (selftests at a time, default 4 per GPU, at most half the cores
# and one per 16 GiB of host memory: the tasks keep KernelBench's sizes, up to gigabytes a
# tensor, and the oracle's float64 copies live in host memory), IMPORT_TIMEOUT_S (default 60),
# TEST_TIMEOUT_S (one selftest, default 120), BUDGET_S, ARENA_PYTHON (a Python with PyTorch).
# The build is build/gpu, as tests/gpu/evidence.sh makes it (its compiled harness is reused).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
t0=$(date +%s)
kb=${1:-.deps/kb/KernelBench}
out=${OUT:-gpu-evidence/kernelbench}
case $out in /*) ;; *) out=$PWD/$out ;; esac
budget=${BUDGET_S:-510}
cores=$(nproc)
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
(( gpus > 0 )) || gpus=1
mem_gib=$(( $(awk '/^MemTotal:/ {print $2}' /proc/meminfo) / 1048576 ))
min() { echo $(( $1 < $2 ? $1 : $2 )); }
jobs=${JOBS:-$(min $(( 8 * gpus )) $(( cores > 3 ? cores - 2 : 1 )))}
test_jobs=${TEST_JOBS:-$(min $(min $(( 4 * gpus )) $(( cores / 2 ))) $(( mem_gib / 16 )))}
(( test_jobs > 0 )) || test_jobs=1
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
import_end=$(( t0 + budget * 50 / 100 ))
echo "$gpus GPU(s), $cores cores, $mem_gib GiB: $jobs import(s) at a time, $test_jobs selftest(s) at a time"

for level in level1 level2; do
  before=$(ls "$tasks/torch2hip")
  # level1 until half the import window, level2 until its end (and what level1 left).
  now=$(date +%s)
  if [ $level = level1 ]; then end=$(( now + (import_end - now) / 2 )); else end=$import_end; fi
  left=$(( end - now ))
  (( left < 0 )) && left=0
  "$python" harness/tools/arena-import-kernelbench --batch "$kb/$level" --out "$tasks/torch2hip" \
    --jobs "$jobs" --timeout-s "${IMPORT_TIMEOUT_S:-60}" --stop-after-s "$left" \
    --report "$out/IMPORT_REPORT-$level.md" >"$out/import-$level.log" 2>&1
  # The folders this level wrote: its tasks, for the per-level count of the selftests.
  comm -13 <(echo "$before") <(ls "$tasks/torch2hip") >"$out/tasks-$level.txt"
  grep -E "imported|refused|CPU thread" "$out/import-$level.log"
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
test_timeout=${TEST_TIMEOUT_S:-120}
fails=$out/eager_correct-failures.txt
(cd $build && ctest -L '^selftest$' -R '/eager_correct$' -j "$test_jobs" --timeout "$test_timeout" \
  --stop-time "$stop" --resource-spec-file arena_resources.json) >"$out/ctest-eager_correct.log" 2>&1
for level in level1 level2; do
  n=$(grep -c . "$out/tasks-$level.txt")
  passed=0 failed=0 cut=0
  while read -r task; do
    [ -n "$task" ] || continue
    line=$(grep -E "selftest/torch2hip/$task/eager_correct " "$out/ctest-eager_correct.log" | grep -E "Test +#" | tail -1)
    secs=$(echo "$line" | grep -oE '[0-9.]+ sec' | cut -d. -f1)
    case $line in
      *" Passed"*) passed=$(( passed + 1 )) ;;
      "" | *"Not Run"* | *"Skipped"*) ;;
      # --stop-time shortens every test's limit to the budget's end: a timeout before the test's
      # own limit is the budget's, not the task's.
      *"Timeout"*) if (( ${secs:-0} + 1 < test_timeout )); then cut=$(( cut + 1 )); else
                     failed=$(( failed + 1 )); echo "  $level $task: ${line##*eager_correct }" >>"$fails"; fi ;;
      *) failed=$(( failed + 1 )); echo "  $level $task: ${line##*eager_correct }" >>"$fails" ;;
    esac
  done <"$out/tasks-$level.txt"
  echo "$level: $(grep -oE '[0-9]+ of [0-9]+ imported' "$out/import-$level.log"), baseline correct (eager_correct) on" \
       "$passed of $n, failed on $failed, not run $(( n - passed - failed ))" \
       "(of which cut off by the budget's end: $cut)"
done
[ -f "$fails" ] && cat "$fails"
echo "the refusals: $out/IMPORT_REPORT-level1.md, $out/IMPORT_REPORT-level2.md; wall $(( $(date +%s) - t0 )) s"
