#!/usr/bin/env bash
# The Slurm recipe of harness/score/slurm/ without Slurm:
#
#   check_slurm_recipe.sh <arena-score> <score_json_check> <slurm dir> <work dir>
#
# 1. every script parses (bash -n; shellcheck too where installed);
# 2. arena-shard-select, for several shard counts, puts every test of the selected suite in
#    exactly one shard once CTest has added the fixture setups each test requires, and all of
#    a task's tests in the same shard; a plain stripe (-I INDEX+1,,COUNT) is shown to fail that;
# 3. arena-submit submits the array and a scoring job that depends on it (sbatch is a stub
#    that records its arguments);
# 4. the array tasks and the scoring job run as plain scripts on a small CTest project whose
#    tests are named and wired like the gates: three shards, each configured and built in its
#    own build root, merge into one scored run; a missing shard stops the scoring job.
set -euo pipefail
score=$1
check=$2
slurm=$3
work=$4
rm -rf "$work"
mkdir -p "$work"
# the scripts read these from run.env or the environment: start from none
unset ARENA_SHARDS ARENA_SRC ARENA_SHARD_COUNT ARENA_FUZZ_SEED ARENA_SUITE ARENA_CMAKE_ARGS ARENA_RUN ARENA_SCORE \
  ARENA_RESULTS_DIR ARENA_SHARD_INDEX ARENA_BUILD_ROOT ARENA_KEEP_BUILD ARENA_ALLOW_MISSING_SHARDS

fail() {
  echo "FAILED: $*"
  exit 1
}
contains() {  # file, extended regex
  grep -qE -- "$2" "$1" || fail "$1 does not match /$2/"
}

# --- 1. syntax -----------------------------------------------------------------------------------
scripts=("$slurm/arena-shard-select" "$slurm/arena-shard.sbatch" "$slurm/arena-merge.sbatch" "$slurm/arena-submit")
for s in "${scripts[@]}"; do
  [ -x "$s" ] || fail "$s is not executable"
  bash -n "$s" || fail "$s does not parse"
done
if command -v shellcheck >/dev/null; then
  shellcheck "${scripts[@]}" || fail "shellcheck found problems"
else
  echo "shellcheck not installed: only bash -n"
fi
for s in "$slurm/arena-shard.sbatch" "$slurm/arena-merge.sbatch"; do
  contains "$s" '^#SBATCH --job-name='
done

# --- a project shaped like KernelArena's gates ------------------------------------------------------
# Suite s: 7 tasks, t1 and t4 with an agent test; suite other: 2 tasks; one framework test.
# Gates pass, print their measurements, write their result JSON and name the fuzz seed.
project=$work/project
mkdir -p "$project"
cat >"$project/gate.sh" <<'SH'
#!/bin/sh
# gate.sh GATE SPEEDUP [args]: prints what the gate would measure, writes --result's file (in the
# result schema, harness/common/result_schema.h), passes
gate=$1 speedup=$2
shift 2
res="" seed=1
while [ $# -gt 0 ]; do
  case $1 in
    --result) res=$2; shift 2 ;;
    --fuzz-seed) seed=$2; shift 2 ;;
    -DRESULT=*) res=${1#-DRESULT=}; shift ;;
    *) shift ;;
  esac
done
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
v='"schema_version": 1'
case $gate in
  compile) json="{$v, \"gate\": \"compile\", \"status\": \"passed\", \"compiled\": true, \"message\": \"compiled in 1 s\"}" ;;
  correct_*)
    echo '<CTestMeasurement type="numeric/double" name="configs_passed">3</CTestMeasurement>'
    echo '<CTestMeasurement type="numeric/double" name="configs_total">3</CTestMeasurement>'
    json="{$v, \"gate\": \"$gate\", \"status\": \"passed\", \"started\": \"$now\", \"fuzz_seed\": $seed, \"passed_configs\": 3, \"total_configs\": 3}" ;;
  perf)
    echo "<CTestMeasurement type=\"numeric/double\" name=\"speedup\">$speedup</CTestMeasurement>"
    echo '<CTestMeasurement type="text/string" name="verdict">FASTER</CTestMeasurement>'
    json="{$v, \"gate\": \"perf\", \"status\": \"passed\", \"started\": \"$now\", \"method\": {\"budget_s\": 5, \"delta\": 0.01}, \"configs\": [], \"speedup\": $speedup, \"ci95_low\": $speedup, \"ci95_high\": $speedup, \"verdict\": \"FASTER\", \"device\": {\"name\": \"Test GPU\"}}" ;;
  agent) json="{$v, \"gate\": \"agent\", \"status\": \"passed\", \"started\": \"$now\", \"agent\": \"replay\", \"agent_status\": \"finished\", \"seconds\": 2.5}" ;;
  *) json="" ;;
esac
if [ -n "$res" ] && [ -n "$json" ]; then mkdir -p "$(dirname "$res")" && echo "$json" >"$res"; fi
exit 0
SH
cat >"$project/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.22)
project(arena_slurm_recipe NONE)
include(CTest)
set(ARENA_FUZZ_SEED "" CACHE STRING "seed")
set(ARENA_PERF_SLOTS 3 CACHE STRING "slots")
add_test(NAME framework/unit/A.B COMMAND true)
set_tests_properties(framework/unit/A.B PROPERTIES LABELS "framework")
function(task suite name speedup agent)
  set(id ${suite}/${name})
  set(r "${CMAKE_BINARY_DIR}/arena/results/${id}")
  set(g sh "${CMAKE_SOURCE_DIR}/gate.sh")
  if(agent)
    add_test(NAME ${id}/agent COMMAND ${g} agent 0 --result "${r}/agent.json")
    set_tests_properties(${id}/agent PROPERTIES LABELS "${suite};agent" FIXTURES_SETUP ${id}/agent)
  endif()
  add_test(NAME ${id}/compile COMMAND ${g} compile 0 "-DRESULT=${r}/compile.json")
  set_tests_properties(${id}/compile PROPERTIES LABELS "${suite};compile" FIXTURES_SETUP ${id}/compiled)
  if(agent)
    set_tests_properties(${id}/compile PROPERTIES FIXTURES_REQUIRED ${id}/agent)
  endif()
  foreach(set seen unseen)
    add_test(NAME ${id}/correct_${set}
      COMMAND ${g} correct_${set} 0 --set ${set} --fuzz-seed ${ARENA_FUZZ_SEED} --result "${r}/correct_${set}.json")
    set_tests_properties(${id}/correct_${set} PROPERTIES LABELS "${suite};correct_${set};gpu"
      FIXTURES_REQUIRED ${id}/compiled FIXTURES_SETUP ${id}/correct RESOURCE_GROUPS "gpus:1")
  endforeach()
  add_test(NAME ${id}/perf COMMAND ${g} perf ${speedup} --result "${r}/perf.json")
  set_tests_properties(${id}/perf PROPERTIES LABELS "${suite};perf;gpu"
    FIXTURES_REQUIRED "${id}/compiled;${id}/correct" RESOURCE_GROUPS "gpus:${ARENA_PERF_SLOTS}")
endfunction()
task(s t1 2 ON)
task(other o1 1.5 OFF)
task(s t2 2 OFF)
task(s t3 2 OFF)
task(s t4 2 ON)
task(s t5 2 OFF)
task(other o2 1.5 OFF)
task(s t6 2 OFF)
task(s t7 16 OFF)
CMAKE

# --- 2. shard selection ---------------------------------------------------------------------------
cmake -S "$project" -B "$work/listing" -DARENA_FUZZ_SEED=5 >/dev/null
ctest --test-dir "$work/listing" -N -L '^s$' | sed -nE 's/^ *Test +#[0-9]+: //p' | sort >"$work/all-s"
[ "$(wc -l <"$work/all-s")" -eq 30 ] || fail "the project should have 30 tests in suite s, has $(wc -l <"$work/all-s")"
# coverage <name> <count> <command printing shard $1's ctest selection, one argument a line>: what
# ctest would run for each shard (fixture setups included), checked against the whole suite
coverage() {
  local name=$1 count=$2 i
  shift 2
  : >"$work/$name.ran"
  for ((i = 0; i < count; i++)); do
    local args=()
    mapfile -t args < <("$@" "$i" "$count")
    [ "${#args[@]}" -gt 0 ] || continue
    ctest --test-dir "$work/listing" -N "${args[@]}" | sed -nE 's/^ *Test +#[0-9]+: //p' |
      sed "s/^/$i /" >>"$work/$name.ran"
  done
  local dup
  dup=$(cut -d' ' -f2 "$work/$name.ran" | sort | uniq -d | head -3 | tr '\n' ' ')
  [ -z "$dup" ] || { echo "$name, $count shards: run in more than one shard: $dup"; return 1; }
  cut -d' ' -f2 "$work/$name.ran" | sort | cmp -s - "$work/all-s" ||
    { echo "$name, $count shards: not every test of suite s runs, or others do"; return 1; }
  # every task in one shard
  local split
  split=$(sed -E 's#^([0-9]+) (.*)/[^/]*$#\2 \1#' "$work/$name.ran" | sort -u | cut -d' ' -f1 | uniq -d | tr '\n' ' ')
  [ -z "$split" ] || { echo "$name, $count shards: tasks split across shards: $split"; return 1; }
}
select_s() { "$slurm/arena-shard-select" "$work/listing" "$1" "$2" -L '^s$'; }
by_task() {  # as arena-shard.sbatch runs it: -I alone
  local sel
  sel=$(select_s "$1" "$2")
  [ -z "$sel" ] || printf '%s\n' -I "$sel"
}
stripe() { printf '%s\n' -L '^s$' -I "$(($1 + 1)),,$2"; }  # every COUNT-th test of the suite
with_label() {  # the selection with -L as well: ctest then counts -I's numbers among the suite's tests
  local sel
  sel=$(select_s "$1" "$2")
  [ -z "$sel" ] || printf '%s\n' -L '^s$' -I "$sel"
}
for count in 1 2 3 4 7 9; do
  coverage by_task "$count" by_task || fail "arena-shard-select does not split the suite into $count whole shards"
done
echo "arena-shard-select: 1, 2, 3, 4, 7 and 9 shards each run every test of suite s exactly once"
# the check catches what it should: plain stripes run required tests in several shards, and the
# selection combined with -L selects other tests
for count in 2 3; do
  if coverage stripe $count stripe; then fail "plain -I stripes passed the coverage check: the check is broken"; fi
done
if coverage with_label 2 with_label; then fail "-I with -L passed the coverage check: the check is broken"; fi
[ "$(select_s 0 1 | tr ',' '\n' | tail -n +4 | wc -l)" -eq 30 ] || fail "one shard should list all 30 tests"
[ "$(select_s 0 1 | cut -d, -f1-6)" = 0,0,0,2,3,4 ] || fail "shard 0 of 1 should start with s/t1's tests (2, 3, 4)"
[ -z "$(select_s 7 9)" ] || fail "shard 7 of 9 (7 tasks) should be empty"
if "$slurm/arena-shard-select" "$work/listing" 3 3 >/dev/null 2>&1; then fail "index 3 of 3 was accepted"; fi

# --- 3. submission ----------------------------------------------------------------------------------
mkdir -p "$work/bin"
cat >"$work/bin/sbatch" <<SH
#!/bin/sh
# records its arguments, one per line, and prints a job id as --parsable does
n=\$(ls "$work/sbatch-calls" 2>/dev/null | wc -l)
mkdir -p "$work/sbatch-calls"
printf '%s\n' "\$@" >"$work/sbatch-calls/\$n"
echo "\$((4100 + n));cluster1"
SH
chmod +x "$work/bin/sbatch"
shared=$work/shared/run1
PATH=$work/bin:$PATH "$slurm/arena-submit" --shards 3 --dir "$shared" --seed 123456789 \
  --cmake-args "-DARENA_CANDIDATE=solution" -- --partition=gpu --gpus-per-node=2 >"$work/submit.out"
cat "$work/submit.out"
contains "$work/submit.out" 'array job 4100 \(0-2\), scoring: job 4101 after it; fuzz seed 123456789'
a=$work/sbatch-calls/0 m=$work/sbatch-calls/1
for want in --parsable --array=0-2 "--export=ALL,ARENA_SHARDS=$shared" --partition=gpu --gpus-per-node=2 \
  "--output=$shared/logs/arena-shard-%A_%a.out"; do
  grep -qxF -- "$want" "$a" || fail "the array submission lacks $want: $(tr '\n' ' ' <"$a")"
done
[ "$(tail -1 "$a")" = "$slurm/arena-shard.sbatch" ] || fail "the array job is not arena-shard.sbatch"
grep -qxF -- --dependency=afterany:4100 "$m" || fail "the scoring job does not wait for array job 4100: $(tr '\n' ' ' <"$m")"
[ "$(tail -1 "$m")" = "$slurm/arena-merge.sbatch" ] || fail "the scoring job is not arena-merge.sbatch"
(
  # shellcheck source=/dev/null
  . "$shared/run.env"
  [ "$ARENA_FUZZ_SEED" = 123456789 ] && [ "$ARENA_SHARD_COUNT" = 3 ] && [ "$ARENA_CMAKE_ARGS" = "-DARENA_CANDIDATE=solution" ] &&
    [ "$ARENA_RUN" = run1 ] && [ -f "$ARENA_SRC/harness/score/slurm/arena-shard.sbatch" ]
) || fail "run.env does not hold the run's settings: $(cat "$shared/run.env")"
if PATH=$work/bin:$PATH "$slurm/arena-submit" --shards 3 --dir "$shared" >/dev/null 2>&1; then
  fail "arena-submit reused a folder that holds a run"
fi
# a drawn seed: 10 digits, as configure draws it
PATH=$work/bin:$PATH "$slurm/arena-submit" --shards 2 --dir "$work/shared/run2" >/dev/null
grep -qE '^ARENA_FUZZ_SEED=1[0-9]{9}$' "$work/shared/run2/run.env" || fail "no drawn seed in run2/run.env"

# --- 4. the jobs, run as scripts -------------------------------------------------------------------
# The small project stands in for the source tree; its suite is s.
{
  echo "ARENA_SRC=$project"
  echo "ARENA_SUITE=s"
  echo "ARENA_CMAKE_ARGS='-DARENA_PERF_SLOTS=3'"
} >>"$shared/run.env"
for i in 0 1 2; do
  env -u CUDA_VISIBLE_DEVICES -u HIP_VISIBLE_DEVICES -u ROCR_VISIBLE_DEVICES \
    SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_JOB_ID=4100 SLURM_CPUS_PER_TASK=2 CUDA_VISIBLE_DEVICES=0,1 \
    ARENA_SHARDS="$shared" ARENA_BUILD_ROOT="$work/node$i" \
    bash "$slurm/arena-shard.sbatch" >"$work/shard$i.log" 2>&1 || { cat "$work/shard$i.log"; fail "shard $i failed"; }
  d=$shared/shard-$i
  [ -f "$d/Testing/TAG" ] || fail "shard $i left no Testing/TAG"
  contains "$d/shard.txt" '^ctest_exit=0$'
  contains "$work/shard$i.log" 'resource spec .*arena_resources\.slurm\.json: \{"version": \{"major": 1, "minor": 0\}, "local": \[\{"gpus": \[\{"id": "0", "slots": 3\}, \{"id": "1", "slots": 3\}\]\}\]\}'
  [ -z "$(ls -A "$work/node$i")" ] || fail "shard $i left its build behind: $(ls -A "$work/node$i")"
  xml=$(ls "$d"/Testing/*/Test.xml)
  contains "$xml" "arena-shard-4100-$i/arena/results/"  # recorded under its own build root
done
ls -d "$shared"/shard-*.partial.* 2>/dev/null && fail "half-written shard folders left"
# shard 0: t1, t4, t7 (with t1's and t4's agent tests); 1: t2, t5; 2: t3, t6
[ "$(grep -c '<Test Status="passed">' "$(ls "$shared"/shard-0/Testing/*/Test.xml)")" -eq 14 ] || fail "shard 0 should have run 14 tests"
[ "$(grep -c '<Test Status="passed">' "$(ls "$shared"/shard-1/Testing/*/Test.xml)")" -eq 8 ] || fail "shard 1 should have run 8 tests"
ARENA_SHARDS=$shared ARENA_SCORE=$score ARENA_RESULTS_DIR=$work/results bash "$slurm/arena-merge.sbatch" >"$work/merge.out" 2>&1 ||
  { cat "$work/merge.out"; fail "the scoring job failed"; }
cat "$work/merge.out"
"$check" "$work/results/run1/scores.json" \
  inputs#3 overall:tasks=7 overall:correct=7 overall:judged=7 overall:geomean_speedup_correct=2.691800 \
  duplicates#0 conflicts#0 warnings#0 'inputs:[0]:fuzz_seeds:[0]~^123456789$' 'inputs:[2]:fuzz_seeds:[0]~^123456789$' \
  'tasks:[s/t1]:agent=finished' 'tasks:[s/t1]:agent_seconds=2.5' 'tasks:[s/t7]:speedup=16' 'tasks:[s/t7]:gates:perf:files:[0]~/shard-0/' \
  'tasks:[s/t6]:gates:perf:result~/shared/run1/shard-2/arena/results/s/t6/perf\.json$' 'tasks:[s/t2]:notes#0' \
  'tasks:[s/t1]:device=Test GPU'
# a shard that never arrived: the scoring job names it and scores nothing
mv "$shared/shard-1" "$work/shard-1.aside"
if ARENA_SHARDS=$shared ARENA_SCORE=$score ARENA_RESULTS_DIR=$work/results ARENA_RUN=partial \
  bash "$slurm/arena-merge.sbatch" >"$work/merge-missing.out" 2>&1; then
  fail "the scoring job scored a run with a missing shard"
fi
cat "$work/merge-missing.out"
contains "$work/merge-missing.out" '^shard 1: MISSING'
contains "$work/merge-missing.out" 'shard\(s\) 1 of 3 missing: nothing scored.*sbatch --array=1 '
[ ! -e "$work/results/partial" ] || fail "a run folder was written with a shard missing"
ARENA_SHARDS=$shared ARENA_SCORE=$score ARENA_RESULTS_DIR=$work/results ARENA_RUN=partial ARENA_ALLOW_MISSING_SHARDS=1 \
  bash "$slurm/arena-merge.sbatch" >/dev/null
"$check" "$work/results/partial/scores.json" inputs#2 overall:tasks=5
mv "$work/shard-1.aside" "$shared/shard-1"
# a shard another seed was configured with (its correctness gates record it): the scoring job refuses it
grep -rl '"fuzz_seed": 123456789' "$shared/shard-2/arena/results" | xargs sed -i 's/"fuzz_seed": 123456789/"fuzz_seed": 987654321/'
[ -n "$(grep -rl '"fuzz_seed": 987654321' "$shared/shard-2/arena/results")" ] || fail "no correctness result of shard 2 records its seed"
if ARENA_SHARDS=$shared ARENA_SCORE=$score ARENA_RESULTS_DIR=$work/results ARENA_RUN=seeds \
  bash "$slurm/arena-merge.sbatch" >"$work/merge-seeds.out" 2>&1; then
  fail "the scoring job merged shards with different fuzz seeds"
fi
contains "$work/merge-seeds.out" 'not shards of one run: .*fuzz seed 987654321 in .*/shard-2/'
echo "PASSED: slurm_recipe"
