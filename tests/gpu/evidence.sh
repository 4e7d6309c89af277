#!/usr/bin/env bash
# Runs the harness's checks on a GPU machine and keeps what they printed and wrote.
#
#   tests/gpu/evidence.sh build                 configure + build (nvidia) into build/gpu
#   tests/gpu/evidence.sh suite <candidate>     ctest -L <suite> with baseline | solution | <folder>
#   tests/gpu/evidence.sh case <name>           one broken candidate (tests/candidates/<name>) on <suite>/gelu_f16
#   tests/gpu/evidence.sh mixed <name>          the whole suite with <name> on gelu_f16, baselines elsewhere
#   tests/gpu/evidence.sh agent <name>          the whole suite through agent <name> (e.g. replay), sandboxed
#   tests/gpu/evidence.sh selftest [regex]      task validation of every suite: ctest -L '^selftest$' [-R regex];
#                                               per-task tables in selftest-report.md (selftest_report.py)
#   tests/gpu/evidence.sh aa [regex]            A/A: the baseline as the candidate (speedups must be ~1)
#   tests/gpu/evidence.sh scale [regex]         A/A on GPU 0 alone, then on every GPU: wall times, GPU per gate
#   tests/gpu/evidence.sh timing [regex]        the suite with the expert solutions at default settings, as
#                                               the main job runs it: where the time goes (suite_timing.py)
#   tests/gpu/evidence.sh speed [regex]         the same twice on one build: first with an empty oracle
#                                               cache, then again after damaging two entries (the repeat
#                                               computes only those two and what was not kept); wall
#                                               times, oracle cache counts, verdicts compared
#   tests/gpu/evidence.sh memory [regex]        correctness gates by GPU memory units: SUITE's task validation
#                                               (default torch2hip, correctness only) on GPU 0 alone at -j 48
#                                               with SLOTS (default 8) gates per GPU at most; nvidia-smi's
#                                               peak use, the units asked, and every out-of-memory problem
#                                               (expected: none, and no gate failed)
#   tests/gpu/evidence.sh profile <task> [I]    profile.sh's report for <suite>/<task>: solution vs baseline
#   tests/gpu/evidence.sh sandbox               the scripted agent cases (label agents), sandbox probe on the GPU
#
# SUITE (default hip2hip) picks the suite, BUDGET the perf budget per gate in seconds, JOBS
# the ctest parallelism of scale (default 8), aa (default 4) and timing and speed (default: all
# cores), SPECS the resource spec files scale runs with (default: GPU 0 alone, then every GPU),
# SCHEDULE the perf gates' ARENA_PERF_SCHEDULE (default exclusive), SLOTS ARENA_PERF_SLOTS
# (default: configure's, from the cores).
# STOP_S cuts every ctest run after that many seconds (ctest --stop-time: Test.xml and the
# results written so far are kept). GPU=<n> gives the run GPU n alone (configure sees one GPU,
# gates run with CUDA_VISIBLE_DEVICES=n) and CPUS=<list> pins ctest and its gates to those cores
# (taskset), e.g. GPU=0 CPUS=0-15 for a one-GPU, 16-core host inside a larger one.
# Logs and result JSON go to $OUT (or ./gpu-evidence). Tools the machine lacks (bwrap) are
# taken from .deps/usr/bin when tests/gpu/prepare-deps.sh filled it.
set -uo pipefail
cd "$(dirname "$0")/../.."
[ -d .deps/usr/bin ] && export PATH="$PWD/.deps/usr/bin:$PATH"
# Python wheels prepare-deps.sh downloaded (triton2triton's baseline packages): installed here,
# where the confined workers may read them (they keep PYTHONPATH and its folders readable).
if [ -d .deps/wheels ] && [ ! -d .deps/python ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --target .deps/python .deps/wheels/*.whl ||
    { echo "installing .deps/wheels failed" >&2; exit 1; }
fi
[ -d .deps/python ] && export PYTHONPATH="$PWD/.deps/python${PYTHONPATH:+:$PYTHONPATH}"
out=${OUT:-gpu-evidence}
mkdir -p "$out"
build=build/gpu
jobs=$(nproc)
suite=${SUITE:-hip2hip}
# Task validation covers every suite unless SUITE names one: a suite whose selftests stop
# working must not go unnoticed.
[ "${1:-}" = selftest ] && suite=${SUITE:-hip2hip;torch2hip;triton2triton}
[ "${1:-}" = memory ] && suite=${SUITE:-torch2hip}

# GPU=<n>: an nvidia-smi that answers for GPU n alone, for configure (it counts the GPUs and
# their memory with it).
smi_args=""
if [ -n "${GPU:-}" ]; then
  command -v nvidia-smi >/dev/null || { echo "GPU=$GPU: this machine has no nvidia-smi" >&2; exit 1; }
  mkdir -p $build
  printf '#!/bin/sh\nexec %s "$@" -i %s\n' "$(command -v nvidia-smi)" "$GPU" >$build/nvidia-smi-one-gpu
  chmod +x $build/nvidia-smi-one-gpu
  smi_args="-D_arena_smi=$PWD/$build/nvidia-smi-one-gpu"
fi
# ctest as GPU, CPUS and STOP_S say.
ctest() {
  local pre=()
  [ -n "${CPUS:-}" ] && pre+=(taskset -c "$CPUS")
  [ -n "${GPU:-}" ] && pre+=(env "CUDA_VISIBLE_DEVICES=$GPU")
  local stop=()
  [ -n "${STOP_S:-}" ] && stop=(--stop-time "$(date -d "+$STOP_S sec" +%H:%M:%S)")
  if [ ${#pre[@]} -gt 0 ]; then "${pre[@]}" ctest "${stop[@]}" "$@"; else command ctest "${stop[@]}" "$@"; fi
}

# ARENA_TASKS_DIR in the environment: validate the tasks of another folder (e.g. new ones).
configure() {  # candidate [fallback]
  cmake -S . -B $build $smi_args -DARENA_HIP_PLATFORM=nvidia "-DARENA_SUITES=$suite" -DARENA_BUILD_FRAMEWORK_TESTS=OFF \
    ${BUDGET:+-DARENA_PERF_BUDGET_S=$BUDGET} -DARENA_TASKS_DIR="${ARENA_TASKS_DIR:-$PWD/tasks}" -DARENA_CANDIDATE="$1" -DARENA_CANDIDATE_FALLBACK="${2:-none}" \
    -DARENA_PERF_SCHEDULE="${SCHEDULE:-exclusive}" ${SLOTS:+-DARENA_PERF_SLOTS=$SLOTS} \
    >>"$out/configure.log" 2>&1 || { tail -40 "$out/configure.log"; exit 1; }
  grep -E "^ARENA_PERF_(SLOTS|SCHEDULE):" $build/CMakeCache.txt
}

# The oracle cache's counts over the correctness gates' results (correct_*.json).
oracle_cache_counts() {
  python3 - "$build" <<'PY'
import glob, json, sys
n = {"gates": 0, "hits": 0, "computed": 0, "rejected": 0, "not_kept": 0, "waited": 0, "lock_timeouts": 0}
for f in glob.glob(f"{sys.argv[1]}/arena/results/*/*/correct_*.json"):
    c = json.load(open(f)).get("oracle_cache")
    if c:
        n["gates"] += 1
        for k in ("hits", "computed", "rejected", "not_kept", "waited", "lock_timeouts"):
            n[k] += c.get(k, 0)
print("oracle cache over {gates} correctness gates: {hits} hit(s), {computed} computed, {rejected} rejected, "
      "{not_kept} not kept, {waited} waited for another gate's computation, {lock_timeouts} wait(s) timed out".format(**n))
PY
}

# ctest without -V, each line stamped with the time it was printed: suite_timing.py's input.
stamped_ctest() {  # log, ctest args...
  local log=$1
  shift
  (cd $build && ctest "$@") 2>&1 | perl -MTime::HiRes=time -ne '$|=1; printf "%.3f %s", time, $_' >"$log"
  return "${PIPESTATUS[0]}"
}

run_ctest() {  # tag, ctest args...
  local tag=$1
  shift
  rm -rf $build/arena/results
  local t0=$(date +%s.%N)
  rm -rf $build/Testing
  (cd $build && ctest -T Test --no-compress-output --resource-spec-file arena_resources.json -V "$@") >"$out/ctest-$tag.log" 2>&1
  local rc=$?
  local t1=$(date +%s.%N)
  echo "ctest $tag: exit $rc, wall $(awk "BEGIN{print $t1 - $t0}") s"
  grep -E "^ *[0-9]+/[0-9]+ Test +#" "$out/ctest-$tag.log"
  local run="$tag-$(date +%Y%m%d-%H%M%S)" scored=""
  # Task validation has no gate tests to score; everything else is scored like a real run.
  if [ "$tag" != selftest ] && $build/harness/score/arena-score $build --run "$run" --results-dir "$build/scores" >/dev/null; then
    tee "$out/summary-$tag.md" < "$build/scores/$run/summary.md"
    scored="scores/$run"
  fi
  # Gate results and CTest's Test.xml together: what the scorer reads.
  tar -C $build -czf "$out/results-$tag.tgz" arena/results Testing $scored
}

case ${1:-} in
  build)
    configure baseline
    # Keep going past a kernel that does not compile, so one broken task does not hide the rest.
    keep_going=""
    grep -q "CMAKE_GENERATOR:INTERNAL=Unix Makefiles" $build/CMakeCache.txt && keep_going="-- -k"
    if cmake --build $build --parallel "$jobs" $keep_going >"$out/build.log" 2>&1; then
      echo "built"
    else
      grep -B2 -A8 -E "error|FATAL" "$out/build.log" | head -80
      echo "built with errors (see build.log)"
    fi
    ;;
  suite)
    configure "$2"
    run_ctest "suite-$(basename "$2")" -L "^$suite\$"
    ;;
  case)
    configure "$PWD/tests/candidates/$2" baseline
    run_ctest "case-$2" -R "^$suite/gelu_f16/"
    grep -hE "FAILED|SKIPPED|out-of-bounds|mismatched|did not finish|slower|breaks" "$out/ctest-case-$2.log" | sort -u | head -20
    ;;
  mixed)
    configure "$PWD/tests/candidates/$2" baseline
    run_ctest "mixed-$2" -L "^$suite\$"
    ;;
  selftest)  # every suite's task validation (SUITE= narrows it), with a count per suite
    configure baseline
    # CTEST_ARGS: more ctest options, e.g. -E '/solution_faster$' (correctness only) or -FA '.*'
    # (perf only, without running the fixtures again).
    # shellcheck disable=SC2086
    run_ctest selftest -L '^selftest$' ${2:+-R "$2"} -j "${JOBS:-4}" ${CTEST_ARGS:-}
    for s in ${suite//;/ }; do
      echo "$s: $(grep -cE "Test +#[0-9]+: selftest/$s/.* Passed" "$out/ctest-selftest.log") passed," \
           "$(grep -cE "Test +#[0-9]+: selftest/$s/.*\*\*\*(Failed|Timeout|Exception|Not Run)" "$out/ctest-selftest.log") failed"
    done
    # Per suite and task: correctness, speedup (and vs torch.compile), fraction of peak, failures.
    python3 tests/gpu/selftest_report.py $build/arena/results/selftest --tasks-dir "${ARENA_TASKS_DIR:-$PWD/tasks}" \
      --suites "${suite//;/,}" >"$out/selftest-report.md"
    grep -E "^(## |- )" "$out/selftest-report.md"
    ;;
  aa)
    configure baseline
    run_ctest aa -L "^$suite\$" ${2:+-R "$2"} -j "${JOBS:-4}"
    grep -hE "overall: speedup" "$out/ctest-aa.log"
    ;;
  scale)  # perf gates may run at once on different GPUs (never two on one: they take all its slots)
    configure baseline
    python3 -c "import json,sys; r=json.load(open(sys.argv[1])); l=r['local'][0]; [l.__setitem__(k, l[k][:1]) for k in l]; json.dump(r,open(sys.argv[2],'w'))" \
      $build/arena_resources.json $build/arena_resources_gpu0.json
    for spec in ${SPECS:-arena_resources_gpu0.json arena_resources.json}; do
      rm -rf $build/arena/results $build/Testing
      stamped_ctest "$out/ctest-scale-$spec.log" -T Test -L "^$suite\$" ${2:+-R "$2"} --resource-spec-file $spec -j "${JOBS:-8}"
      echo "== $spec: exit $?"
      python3 tests/gpu/suite_timing.py "$out/ctest-scale-$spec.log" $build/arena/results
      python3 - "$build" <<'PY'
import glob, json, sys
for f in sorted(glob.glob(f"{sys.argv[1]}/arena/results/*/*/perf.json")):
    j = json.load(open(f))
    if "speedup" in j:
        print(f"  {f.split('/')[-2]:24s} gpu{j['device']['id']} {j['speedup']:.4f} [{j['ci95_low']:.4f}, {j['ci95_high']:.4f}] {j['verdict']}")
PY
    done
    ;;
  timing)
    configure solution
    rm -rf $build/arena/results $build/Testing
    stamped_ctest "$out/ctest-timing.log" -T Test -L "^$suite\$" ${2:+-R "$2"} --resource-spec-file arena_resources.json -j "${JOBS:-$jobs}"
    echo "== exit $?"
    python3 tests/gpu/suite_timing.py "$out/ctest-timing.log" $build/arena/results
    grep -E "\*\*\*" "$out/ctest-timing.log" | head -20
    ;;
  speed)  # the suite with the solutions, first run (oracle cache emptied) and a repeat on the same build
    configure solution
    cmake --build $build --parallel "$jobs" >>"$out/build.log" 2>&1 || { grep -B2 -A8 error "$out/build.log" | head -40; exit 1; }
    rm -rf $build/arena/oracle_cache
    for run in first repeat; do
      rm -rf $build/arena/results $build/Testing
      t0=$(date +%s.%N)
      stamped_ctest "$out/ctest-speed-$run.log" -T Test -L "^$suite\$" ${2:+-R "$2"} --resource-spec-file arena_resources.json -j "${JOBS:-$jobs}"
      rc=$?
      echo "== speed $run: exit $rc, wall $(awk "BEGIN{print $(date +%s.%N) - $t0}") s"
      python3 tests/gpu/suite_timing.py "$out/ctest-speed-$run.log" $build/arena/results
      oracle_cache_counts
      grep -E "\*\*\*" "$out/ctest-speed-$run.log" | head -20
      tar -C $build -czf "$out/results-speed-$run.tgz" arena/results Testing
      [ $run = first ] || continue
      rm -rf "$out/speed-first" && cp -r $build/arena/results "$out/speed-first"
      # Two damaged entries the repeat must reject and recompute (its count of rejected: 2).
      mapfile -t damaged < <(find $build/arena/oracle_cache -name '*.oracle' | sort | head -2)
      [ ${#damaged[@]} = 2 ] && python3 - "${damaged[@]}" <<'PY'
import os, sys
with open(sys.argv[1], "r+b") as f:
    f.seek(-9, os.SEEK_END)
    b = f.read(1)
    f.seek(-9, os.SEEK_END)
    f.write(bytes([b[0] ^ 0x01]))
os.truncate(sys.argv[2], os.path.getsize(sys.argv[2]) - 8)
print("damaged for the repeat:", *sys.argv[1:])
PY
    done
    du -sh $build/arena/oracle_cache
    # The repeat's verdicts and errors must be the first run's: the cached oracle is the same oracle.
    python3 - "$out/speed-first" $build/arena/results <<'PY'
import glob, json, os, sys
first, repeat = sys.argv[1:3]
same, differ = 0, []
for f in sorted(glob.glob(f"{first}/*/*/correct_*.json")):
    g = os.path.join(repeat, os.path.relpath(f, first))
    a = json.load(open(f))
    b = json.load(open(g)) if os.path.exists(g) else {}
    # Verdicts must match; errors match too unless the kernel itself is not deterministic (atomics).
    keys = ("status", "passed_configs", "total_configs", "max_abs_err", "max_rel_err")
    changed = [f"{k} {a.get(k)} vs {b.get(k)}" for k in keys if a.get(k) != b.get(k)]
    if not changed:
        same += 1
    else:
        verdict = any(k in c for c in changed for k in keys[:3])
        differ.append(("DIFFERENT VERDICT " if verdict else "errors differ ") + os.path.relpath(f, first) + ": " + ", ".join(changed))
print(f"repeat vs first: {same} correctness gates identical, {len(differ)} not")
for d in differ:
    print("  " + d)
PY
    ;;
  memory)  # correctness gates placed by their memory units, many at once on one GPU
    SLOTS=${SLOTS:-8} configure baseline
    grep -E "^ARENA_GPU_(UNITS|SHARE):" $build/CMakeCache.txt
    python3 -c "import json,sys; r=json.load(open(sys.argv[1])); l=r['local'][0]; [l.__setitem__(k, l[k][:1]) for k in l]; json.dump(r,open(sys.argv[2],'w'))" \
      $build/arena_resources.json $build/arena_resources_gpu0.json
    (while sleep 1; do nvidia-smi --query-gpu=memory.used,memory.total --format=csv,noheader,nounits -i 0; done) \
      >"$out/memory-samples.csv" 2>/dev/null &
    sampler=$!
    rm -rf $build/arena/results $build/Testing
    stamped_ctest "$out/ctest-memory.log" -T Test -L '^selftest$' -E '/(solution_faster|filter|launch_bound)$' \
      ${2:+-R "$2"} --resource-spec-file arena_resources_gpu0.json -j "${JOBS:-48}"
    echo "== exit $?"
    kill "$sampler"
    sort -t, -k1 -n "$out/memory-samples.csv" | tail -1 | awk -F', *' '{print "peak GPU 0 memory used: " $1 " of " $2 " MiB"}'
    grep -ohE 'RESOURCE_GROUPS "gpus:[0-9]+"' $build/suites/*/CTestTestfile.cmake 2>/dev/null | sort | uniq -c
    echo "out-of-memory problems: $(grep -ciE 'out of (device )?memory' "$out/ctest-memory.log")"
    grep -iE 'out of (device )?memory' "$out/ctest-memory.log" | head -10
    grep -E "\*\*\*(Failed|Timeout|Exception)" "$out/ctest-memory.log" | head -20
    ;;
  profile)  # what ./profile.sh prints in a workspace, for the expert solution
    configure solution
    (cd $build && ctest -R "^$suite/$2/compile\$" >/dev/null)
    k=$PWD/$build/arena/kernels/$suite/$2
    runner="$PWD/$build/harness/arena-profile" base="$k/baseline.so" cand="$k/candidate.so"
    if [ "$suite" != hip2hip ]; then runner="python3 $PWD/harness/python/arena_host.py $PWD/$build/harness/libarena_tools.so arena-profile"; fi
    [ "$suite" = triton2triton ] && base="py:triton:kernel:$PWD/tasks/$suite/$2/baseline.py" cand="py:triton:kernel:$k/candidate.py"
    [ "$suite" = torch2hip ] && base="py:torch:eager:$PWD/tasks/$suite/$2"
    sh harness/tools/arena-profile.sh --runner "$runner" --task "tasks/$suite/$2/task.json" --config "${3:-0}" \
      --out "$out/profile-$2" --title "$suite/$2" --side "candidate=$cand" --side "baseline=$base" | tee "$out/profile-$2.txt"
    ;;
  sandbox)  # the scripted agent cases on the GPU: the sandbox probe's self-check reaches the device
    cmake -S . -B $build -DARENA_BUILD_FRAMEWORK_TESTS=ON -DARENA_AGENT= -DARENA_TASKS_DIR="$PWD/tasks" >>"$out/configure.log" 2>&1 ||
      { tail -40 "$out/configure.log"; exit 1; }
    cmake --build $build --parallel "$jobs" >>"$out/build.log" 2>&1 || { grep -B2 -A8 error "$out/build.log" | head -40; exit 1; }
    (cd $build && ctest -L '^agents$' -V) >"$out/ctest-sandbox.log" 2>&1
    echo "ctest agents: exit $?"
    grep -E "^ *[0-9]+/[0-9]+ Test +#" "$out/ctest-sandbox.log"
    w=$build/tests/agents/work/probe_hidden_paths/workspace
    for f in probe.txt check.rc check.log profile.rc profile.log; do echo "== $f"; cat "$w/$f"; done | tee "$out/sandbox-probe.txt"
    ;;
  agent)
    cmake -S . -B $build -DARENA_AGENT="$2" -DARENA_CANDIDATE= -DARENA_AGENT_SANDBOX=ON -DARENA_AGENT_REDO=ON \
      -DARENA_RUN_NAME=evidence >>"$out/configure.log" 2>&1 || { tail -40 "$out/configure.log"; exit 1; }
    run_ctest "agent-$2" -L "^$suite\$" -j "$(nproc)"
    tar -C $build/arena -czf "$out/agent-runs-$2.tgz" evidence
    cmake -S . -B $build -DARENA_AGENT= >>"$out/configure.log" 2>&1
    ;;
  *)
    echo "usage: $0 build | suite <candidate> | case <name> | mixed <name> | agent <name> | selftest [regex] | aa [regex] | scale [regex] | timing [regex] | speed [regex] | memory [regex] | profile <task> [I] | sandbox" >&2
    exit 2
    ;;
esac
