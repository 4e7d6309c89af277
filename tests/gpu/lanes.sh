#!/usr/bin/env bash
# One build, several ctest runs at once on one GPU machine, each in its own lane: its GPUs (a
# resource spec holding only those), its cores (taskset) and its time limit (ctest --stop-time,
# which keeps what finished). A machine's minutes go further when a one-GPU measurement, the
# exploit corpus and task validation run side by side than one after another.
#
#   tests/gpu/lanes.sh 'NAME|GPU IDS|CPUS|STOP_S|ctest args' ...
#
#   tests/gpu/lanes.sh 'speed|0|0-15|330|-L ^hip2hip$ -j 16' \
#                      'exploits|1|16-31|400|-L ^(exploits|candidates)$ -LE compile_checks -j 8' \
#                      'timed|2,3|32-63|420|-FA .* -R ^selftest/(torch2hip|triton2triton)/.*/solution_faster$ -j 32'
#
# ctest args are split on spaces (write regexes without them). A selection by -R pulls in the
# tests it needs as fixtures (a selftest's solution_faster runs its task's correctness checks
# first): -FA '.*' leaves them out, and the lane says so when it sees neither. Lanes share the
# build's results folder: give them tests that do not overlap.
#
# Environment: CANDIDATE (default solution), BUDGET (ARENA_PERF_BUDGET_S), SCHEDULE (default
# exclusive), SLOTS, CONFIGURE_ARGS (more -D options), NO_BUILD=1 (the build is there: no
# configure or build), OUT (default gpu-evidence/lanes), DRY=1 (print each lane's command and
# spec, run nothing; SPEC names the resource spec to split then). Writes per lane
# ctest-NAME.log (lines stamped with the time), junit-NAME.xml and a summary; then the
# selftest report when task validation ran, the oracle cache's counts, and results.tgz.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
[ -d .deps/usr/bin ] && export PATH="$PWD/.deps/usr/bin:$PATH"
if [ -d .deps/wheels ] && [ ! -d .deps/python ] && [ -z "${DRY:-}" ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --target .deps/python .deps/wheels/*.whl ||
    { echo "installing .deps/wheels failed" >&2; exit 1; }
fi
[ -d .deps/python ] && export PYTHONPATH="$PWD/.deps/python${PYTHONPATH:+:$PYTHONPATH}"
build=build/gpu
out=${OUT:-gpu-evidence/lanes}
mkdir -p "$out"
out=$(cd "$out" && pwd)
[ $# -gt 0 ] || { sed -n '2,24p' "$0" >&2; exit 2; }

# Every lane is checked before anything runs: a typo must not cost a machine's minutes.
names=()
for lane in "$@"; do
  IFS='|' read -r name gpus cpus stop args <<<"$lane"
  [[ $name =~ ^[A-Za-z0-9_-]+$ ]] || { echo "lane '$lane': NAME must be letters, digits, - or _" >&2; exit 2; }
  [[ $gpus =~ ^[0-9]+(,[0-9]+)*$ ]] || { echo "lane $name: GPU IDS '$gpus' is not a list like 0 or 1,2" >&2; exit 2; }
  [[ $cpus =~ ^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$ ]] || { echo "lane $name: CPUS '$cpus' is not a taskset list like 0-15" >&2; exit 2; }
  [[ $stop =~ ^[0-9]+$ ]] || { echo "lane $name: STOP_S '$stop' is not a number of seconds" >&2; exit 2; }
  [ -n "$args" ] || { echo "lane $name: no ctest arguments (it would run every test)" >&2; exit 2; }
  [[ " ${names[*]} " == *" $name "* ]] && { echo "lane $name: named twice" >&2; exit 2; }
  names+=("$name")
done

if [ -z "${NO_BUILD:-}" ] && [ -z "${DRY:-}" ]; then
  t0=$(date +%s)
  # shellcheck disable=SC2086
  cmake -S . -B $build -DARENA_HIP_PLATFORM=nvidia -DARENA_CANDIDATE="${CANDIDATE:-solution}" \
    -DARENA_PERF_SCHEDULE="${SCHEDULE:-exclusive}" ${SLOTS:+-DARENA_PERF_SLOTS=$SLOTS} \
    ${BUDGET:+-DARENA_PERF_BUDGET_S=$BUDGET} -DARENA_AGENT= -DARENA_AGENT_SCRIPT= ${CONFIGURE_ARGS:-} \
    >"$out/configure.log" 2>&1 || { tail -40 "$out/configure.log"; echo "FAILED: configure"; exit 1; }
  cmake --build $build --parallel "$(nproc)" -- -k >"$out/build.log" 2>&1 ||
    { grep -B2 -A8 -E "error|FATAL" "$out/build.log" | head -60; echo "built with errors (see build.log)"; }
  echo "configure and build: $(( $(date +%s) - t0 )) s"
  rm -rf $build/arena/results
fi
spec=${SPEC:-$PWD/$build/arena_resources.json}
[ -f "$spec" ] || { echo "no resource spec at $spec (configure on a GPU machine first)" >&2; exit 1; }

run_lane() {  # name gpus cpus stop args
  local name=$1 gpus=$2 cpus=$3 stop=$4 args=$5
  set -f  # the ctest arguments are regexes (.*), not file patterns
  local lane_spec="$out/spec-$name.json"
  python3 tests/gpu/resource_spec_subset.py "$spec" "$lane_spec" "$gpus" || return 1
  if [[ $args == *-R* && $args != *-FA* && $args != *-FS* ]]; then
    echo "lane $name: -R without -FA: the tests it selects bring their fixtures (e.g. correctness checks) along"
  fi
  # shellcheck disable=SC2206
  local cmd=(taskset -c "$cpus" ctest --output-on-failure --output-junit "$out/junit-$name.xml"
             --resource-spec-file "$lane_spec" --stop-time "$(date -d "+$stop sec" +%H:%M:%S)" $args)
  if [ -n "${DRY:-}" ]; then
    echo "lane $name: ${cmd[*]}"
    echo "lane $name spec: $(cat "$lane_spec")"
    return 0
  fi
  local t0=$(date +%s.%N)
  (cd $build && "${cmd[@]}") 2>&1 | perl -MTime::HiRes=time -ne '$|=1; printf "%.3f %s", time, $_' >"$out/ctest-$name.log"
  {
    echo "== lane $name (GPUs $gpus, cores $cpus, stop $stop s): wall $(awk "BEGIN{print $(date +%s.%N) - $t0}") s"
    grep -E "tests passed|Total Test time" "$out/ctest-$name.log" | sed 's/^[0-9.]* *//'
    grep -E "\*\*\*(Failed|Timeout|Exception|Not Run)" "$out/ctest-$name.log" | sed 's/^[0-9.]* *//' | head -40
  } >"$out/summary-$name.txt"
}

for lane in "$@"; do
  IFS='|' read -r name gpus cpus stop args <<<"$lane"
  run_lane "$name" "$gpus" "$cpus" "$stop" "$args" &
done
wait
[ -n "${DRY:-}" ] && exit 0
cat "$out"/summary-*.txt
if [ -d $build/arena/results/selftest ]; then
  python3 tests/gpu/selftest_report.py $build/arena/results/selftest --tasks-dir "$PWD/tasks" >"$out/selftest-report.md" &&
    grep -E "^(## |- )" "$out/selftest-report.md"
fi
tar -C $build -czf "$out/results.tgz" arena/results 2>/dev/null
echo "lanes done: logs, summaries and results.tgz in $out"
