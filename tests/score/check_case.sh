#!/usr/bin/env bash
# End-to-end checks of arena-score on the fixtures in fixtures/ (README.md there says what each
# holds). One CTest test per case:
#
#   check_case.sh <case> <arena-score> <score_json_check> <fixtures dir> <work dir>
#
# Every case asserts real numbers; see the expected values next to each command.
set -euo pipefail
name=$1
score=$2
check=$3
fixtures=$4
work=$5
rm -rf "$work"
mkdir -p "$work"
results=$work/results
cd "$fixtures"  # inputs given relative to the fixtures, as a user would from a source tree

fail() {
  echo "FAILED: $*"
  exit 1
}
contains() {  # file, extended regex
  grep -qE -- "$2" "$1" || fail "$1 does not match /$2/"
}
self_contained() {  # no fetch of anything outside the page
  if grep -nE 'https?://|src=|@import|url\(' "$1"; then fail "$1 refers to something outside itself"; fi
}
no_leftovers() {  # nothing half-written beside the run folders
  if ls -A "$1" | grep -q partial; then fail "temporary folders left in $1: $(ls -A "$1")"; fi
}

case $name in
  all_pass)  # 5 real H200 tasks: 4 expert solutions (FASTER) and one A/A baseline (SAME, 1.0004)
    "$score" all_pass --results-dir "$results" --run r
    "$check" "$results/r/scores.json" \
      overall:tasks=5 overall:judged=5 overall:compile_rate=1 overall:correct_seen_rate=1 \
      overall:correct_unseen_rate=1 overall:p_unseen_given_seen=1 overall:generalization_gap=0 overall:correct=5 \
      overall:geomean_speedup_correct=2.782221 overall:geomean_speedup_all=2.782221 \
      overall:fast_p:1.0=0.8 overall:fast_p:1.5=0.8 overall:fast_p:2.0=0.8 overall:aka_score_mean=459.6011 \
      suites#1 suites:hip2hip:tasks=5 tasks#5 \
      'tasks:[hip2hip/gelu_f16]:agent=finished' 'tasks:[hip2hip/gelu_f16]:agent_seconds=12.5' \
      'tasks:[hip2hip/gemm_f32]:agent=none' 'tasks:[hip2hip/gelu_f16]:notes#0' \
      'tasks:[hip2hip/gelu_f16]:speedup=2.046454' 'tasks:[hip2hip/gelu_f16]:ci95_low=2.0425' \
      'tasks:[hip2hip/gelu_f16]:fraction_of_peak=0.522312' 'tasks:[hip2hip/gelu_f16]:device=NVIDIA H200' \
      'tasks:[hip2hip/gelu_f16]:gates:correct_unseen:configs_passed=10' \
      'tasks:[hip2hip/softmax_rows]:verdict=SAME' 'tasks:[hip2hip/softmax_rows]:aka_score=220.04' \
      'tasks:[hip2hip/transpose_2d]:configs#4' 'tasks:[hip2hip/gemm_f32]:errors#0' \
      warnings#0 conflicts#0 duplicates#0 time:by_gate#5 time:by_gate:perf:tests=5 time:untimed_tests=0
    contains "$results/r/summary.md" '^\| perf \| 5 \| '
    contains "$results/r/summary.md" '^\| hip2hip/transpose_2d \| none \| ok \| 4/4 \| 13/13 \| 6\.818 \[6\.806, 6\.829\] \| FASTER \|'
    contains "$results/r/summary.md" '^\| geomean speedup, judged tasks \(not correct = 1\.0\) \| 2\.782 \| 2\.782 \|'
    contains "$results/r/index.html" '<svg '
    self_contained "$results/r/index.html"
    ;;

  failures)  # compile failure, Not Run dependents, seen/unseen failures, timeout, crash, slowdown,
    # perf without a result file (twice: results come only from the files, so neither is judged),
    # speed-of-light violation; two suites
    "$score" failures --results-dir "$results" --run r
    "$check" "$results/r/scores.json" \
      overall:tasks=9 overall:judged=7 overall:unjudged=2 overall:compiled=8 overall:compile_rate=0.888889 \
      overall:correct_seen=6 overall:correct_unseen=7 overall:correct_seen_and_unseen=5 \
      overall:p_unseen_given_seen=0.833333 overall:generalization_gap=-0.111111 overall:correct=1 \
      overall:geomean_speedup_correct=0.8 overall:geomean_speedup_all=0.968625 \
      overall:fast_p:1.0=0 overall:fast_p:1.5=0 overall:fast_p:2.0=0 overall:aka_score_mean=42.857143 \
      overall:failed_gates=5 overall:timeouts=1 overall:crashes=1 overall:not_run_gates=6 overall:skipped_gates=0 \
      suites#2 suites:extra:tasks=2 suites:extra:correct=0 suites:extra:aka_score_mean=20 \
      suites:hip2hip:tasks=7 suites:hip2hip:unjudged=1 suites:hip2hip:geomean_speedup_correct=0.8 \
      suites:hip2hip:generalization_gap=-0.142857 ignored_tests=1 \
      'tasks:[hip2hip/a_compile_fail]:compiled=false' 'tasks:[hip2hip/a_compile_fail]:aka_score=0' \
      'tasks:[hip2hip/a_compile_fail]:agent=timed_out' \
      'tasks:[hip2hip/a_compile_fail]:notes:[0]=agent: timed_out after 3600 s; the gates judged what it left' \
      'tasks:[hip2hip/a_compile_fail]:judged=true' 'tasks:[hip2hip/a_compile_fail]:gates:perf:outcome=not_run' \
      'tasks:[hip2hip/a_compile_fail]:errors:[0]~kernel\.hip\(6\): error: expected an expression' \
      'tasks:[hip2hip/a_compile_fail]:errors:[3]~^correct_seen, correct_unseen, perf: not run \(Fixture dependency failed' \
      'tasks:[hip2hip/b_seen_fail]:gates:correct_seen:configs_passed=2' \
      'tasks:[hip2hip/b_seen_fail]:gates:correct_seen:configs_total=3' \
      'tasks:[hip2hip/b_seen_fail]:errors:[0]~^correct_seen: y: 12 of 1014 mismatched .* on seen\[2\]' \
      'tasks:[hip2hip/c_unseen_fail]:correct_seen=true' 'tasks:[hip2hip/c_unseen_fail]:correct_unseen=false' \
      'tasks:[hip2hip/d_perf_timeout]:gates:perf:outcome=timeout' 'tasks:[hip2hip/d_perf_timeout]:judged=true' \
      'tasks:[hip2hip/d_perf_timeout]:errors:[0]~^perf: timed out after [0-9.]+ s' \
      'tasks:[hip2hip/e_crash]:gates:correct_seen:outcome=crashed' 'tasks:[hip2hip/e_crash]:errors:[0]~SEGFAULT' \
      'tasks:[hip2hip/f_slower]:correct=true' 'tasks:[hip2hip/f_slower]:perf_valid=true' \
      'tasks:[hip2hip/f_slower]:gates:perf:outcome=failed' 'tasks:[hip2hip/f_slower]:speedup=0.8' \
      'tasks:[hip2hip/f_slower]:verdict=SLOWER' 'tasks:[hip2hip/f_slower]:aka_score=200' \
      'tasks:[hip2hip/g_no_numbers]:judged=false' 'tasks:[hip2hip/g_no_numbers]:correct=false' \
      'tasks:[hip2hip/g_no_numbers]:speedup=null' 'tasks:[hip2hip/g_no_numbers]:aka_score=null' \
      'tasks:[hip2hip/g_no_numbers]:errors:[0]~no speedup was recorded' \
      'tasks:[extra/h_nojson]:judged=false' 'tasks:[extra/h_nojson]:correct=false' 'tasks:[extra/h_nojson]:speedup=null' \
      'tasks:[extra/h_nojson]:fraction_of_peak=null' 'tasks:[extra/h_nojson]:device=null' 'tasks:[extra/h_nojson]:configs#0' \
      'tasks:[extra/h_nojson]:notes:[0]~^perf: result file missing: .*/extra/h_nojson/perf\.json' \
      'tasks:[extra/i_sol_violation]:perf_valid=false' 'tasks:[extra/i_sol_violation]:correct=false' \
      'tasks:[extra/i_sol_violation]:judged=true' 'tasks:[extra/i_sol_violation]:aka_score=20' \
      "tasks:[extra/i_sol_violation]:errors:[0]~above the device's peak"
    contains "$results/r/summary.md" '^\| hip2hip/f_slower \| none \| ok \| 3/3 \| 10/10 \| 0\.800 \[0\.790, 0\.810\] \| SLOWER \|'
    contains "$results/r/summary.md" 'could not be judged'
    self_contained "$results/r/index.html"
    ;;

  no_gpu)  # a real `ctest -T Test -L '^hip2hip$'` of this project on a machine without a GPU: said once,
    # plainly, that no GPU was found and only compilation was judged; no rate, speedup or points
    "$score" no_gpu --results-dir "$results" --run r >"$work/stdout"
    cat "$work/stdout"
    "$check" "$results/r/scores.json" \
      overall:tasks=6 overall:judged=0 overall:unjudged=6 overall:gpu_judged=0 overall:skipped_gates=18 \
      overall:compile_rate=1 overall:correct_seen_rate=null overall:correct_unseen_rate=null overall:correct_rate=null \
      overall:correct=0 overall:p_unseen_given_seen=null overall:generalization_gap=null \
      overall:geomean_speedup_correct=null overall:geomean_speedup_all=null overall:aka_score_mean=null \
      overall:fast_p:1.0=null \
      'tasks:[hip2hip/gemm_f32]:gates:compile:outcome=passed' 'tasks:[hip2hip/gemm_f32]:gates:perf:outcome=skipped' \
      'tasks:[hip2hip/gemm_f32]:unjudged_reason=correct_seen skipped' 'tasks:[hip2hip/gemm_f32]:aka_score=null' \
      'tasks:[hip2hip/gemm_f32]:speedup=null' \
      'tasks:[hip2hip/gemm_f32]:notes:[0]=correct_seen, correct_unseen, perf: skipped' \
      'notice~^No GPU found: only compilation was judged \(6 of 6 task\(s\) compiled\)' \
      'notice~The GPU gates said: no usable GPU' warnings#0
    # the reason once, in every report, and no number that needs a GPU
    [ "$(grep -c 'no usable GPU' "$work/stdout")" = 1 ] || fail "stdout gives the skip reason other than once"
    contains "$work/stdout" 'not judged \(no GPU gate ran\)'
    if grep -qE 'points [0-9]|geomean speedup: [0-9]' "$work/stdout"; then fail "stdout shows points or a geomean without a GPU"; fi
    [ "$(grep -c 'no usable GPU' "$results/r/summary.md")" = 1 ] || fail "summary.md gives the skip reason other than once"
    contains "$results/r/summary.md" '^> \*\*No GPU found: only compilation was judged'
    contains "$results/r/summary.md" '^\| correct \(seen \+ unseen \+ a speedup that counts\) \| not judged \| not judged \|'
    contains "$results/r/summary.md" '^\| AgentKernelArena score \(mean points, judged tasks\) \| - \| - \|'
    contains "$results/r/summary.md" '^\| hip2hip/gemm_f32 \| none \| ok \| skipped \| skipped \| - \| - \| - \| - \|'
    contains "$results/r/summary.md" '^\| gates skipped \(no GPU\) \| 18 \| 18 \|'
    [ "$(grep -c 'no usable GPU' "$results/r/index.html")" = 1 ] || fail "index.html gives the skip reason other than once"
    contains "$results/r/index.html" 'class="warn notice"><b>No GPU found'
    ;;

  unjudged)  # a first run without a GPU (fixtures/unjudged): 4 tasks compiled and their GPU gates skipped,
    # one candidate file missing, three Triton baselines refused (their package is not installed).
    # Unjudged is not failed; a compile failure is judged (0 points) and counted in the mean.
    "$score" unjudged --results-dir "$results" --run r >"$work/stdout"
    cat "$work/stdout"
    tree='/home/newcomer/src/kernel-arena-first-run'
    "$check" "$results/r/scores.json" \
      overall:tasks=8 overall:judged=4 overall:unjudged=4 overall:gpu_judged=0 overall:compiled=4 \
      overall:aka_score_mean=0 overall:correct_seen_rate=null overall:fast_p:1.0=null \
      suites:triton2triton:judged=3 suites:triton2triton:aka_score_mean=0 \
      suites:hip2hip:judged=1 suites:hip2hip:aka_score_mean=0 \
      'tasks:[triton2triton/liger_geglu_bf16]:judged=true' 'tasks:[triton2triton/liger_geglu_bf16]:aka_score=0' \
      'tasks:[triton2triton/gelu_f16]:judged=false' 'tasks:[triton2triton/gelu_f16]:aka_score=null' \
      'tasks:[hip2hip/gemm_f32]:errors#2' \
      "tasks:[hip2hip/gemm_f32]:errors:[0]~^compile: FAILED[:] hip2hip/gemm_f32 candidate: no source file at $tree/my-candidates/hip2hip/gemm_f32/kernel\\.hip\$" \
      'tasks:[hip2hip/gemm_f32]:errors:[1]~^correct_seen, correct_unseen, perf: not run \(' \
      'tasks:[triton2triton/liger_geglu_bf16]:errors#3' \
      "tasks:[triton2triton/liger_geglu_bf16]:errors:[0]~^compile: $tree/KernelArena/tasks/triton2triton/liger_geglu_bf16/baseline\\.py: the task's package: module liger_kernel\\.ops\\.geglu is not installed .*: install the suite's pinned requirements \\(suites/<suite>/requirements\\.txt\\)\$" \
      'tasks:[triton2triton/liger_geglu_bf16]:errors:[1]=compile: triton2triton/liger_geglu_bf16 candidate: REFUSED in 0.0 s'
    # summary.md: the mean agrees with the points and the judged count; not judged is not an error
    contains "$results/r/summary.md" '^\| AgentKernelArena score \(mean points, judged tasks\) \| 0\.0 \(1 judged\) \| 0\.0 \(3 judged\) \| 0\.0 \(4 judged\) \|'
    contains "$results/r/summary.md" '^\| task \| agent \| compile \| correct_seen \| correct_unseen \| .* \| errors, or why not judged \|$'
    contains "$results/r/summary.md" '^\| triton2triton/gelu_f16 \| none \| ok \| skipped \| skipped \| - \| - \| - \| - \| \*not judged: correct_seen skipped\* \|$'
    contains "$results/r/summary.md" '^\| triton2triton/liger_geglu_bf16 \| none \| FAILED \| not run \| not run \| - \| - \| - \| 0\.0 \| compile: .*requirements\.txt\)<br>compile: triton2triton/liger_geglu_bf16 candidate: REFUSED in 0\.0 s<br>correct_seen, correct_unseen, perf: not run \(.*\) \|$'
    if grep -nE '\.\.\.( \||<br>)|\(the reason is the' "$results/r/summary.md"; then fail "summary.md cuts an error line"; fi
    # the terminal: the mean over the judged tasks, said with its count
    contains "$work/stdout" '^  triton2triton 5 task\(s\): compile 40\.0 % \| correctness, speedup: not judged \(no GPU gate ran\) \| points 0\.0 \(3 judged: did not compile\)$'
    ;;

  unjudged_pages)  # index.html of the same run, rendered by headless Chromium: page_probe.js reads what it shows
    chromium=${ARENA_CHROMIUM:-/usr/bin/chromium}
    [ -x "$chromium" ] || {
      echo "SKIPPED: $chromium not found (Debian package chromium; .ci/install-deps installs it)"
      exit 77
    }
    "$score" unjudged --results-dir "$results" --run r >/dev/null
    probe_dir=$(dirname "$0")
    sed '/<\/body>/d; /<\/html>/d' "$results/r/index.html" >"$work/probed.html"
    { echo '<script>'; cat "$probe_dir/page_probe.js"; echo '</script></body></html>'; } >>"$work/probed.html"
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
      --disable-component-update --disable-sync --no-first-run "--user-data-dir=$work/chromium" \
      --window-size=1400,2000 --virtual-time-budget=5000 --dump-dom "file://$work/probed.html" \
      >"$work/dom.html" 2>"$work/chromium.log" || { cat "$work/chromium.log"; fail "chromium did not render the page"; }
    python3 - "$work/dom.html" "$work/probe.json" <<'PY' || fail "no probe output in the rendered page (see $work/dom.html)"
import html, re, sys
m = re.search(r'<pre id="probe">(\{.*?)</pre>', open(sys.argv[1]).read(), re.S)
open(sys.argv[2], "w").write(html.unescape(m.group(1)))
PY
    "$check" "$work/probe.json" \
      'fast_p:curves#0' 'fast_p:text~not judged: no GPU gate ran' \
      'seen_unseen#3' \
      'seen_unseen:[(overall)]:cells:seen not correct / unseen not correct=4' \
      'seen_unseen:[(overall)]:cells:seen not judged / unseen not judged=4' \
      'seen_unseen:[(overall)]:cells:seen correct / unseen correct=0' \
      'seen_unseen:[triton2triton]:cells:seen not judged / unseen not judged=2' \
      'seen_unseen:[triton2triton]:cells:seen not correct / unseen not correct=3' \
      'tasks#8' \
      'tasks:[hip2hip/gelu_f16]:alarms#0' 'tasks:[triton2triton/layernorm_rows]:alarms#0' \
      'tasks:[hip2hip/gelu_f16]:lines:[0]=not judged: correct_seen skipped' \
      'tasks:[hip2hip/gelu_f16]:cells:points=-' \
      'tasks:[triton2triton/liger_geglu_bf16]:cells:points~^0\.0$' \
      'tasks:[triton2triton/liger_geglu_bf16]:alarms:[0]=FAILED' \
      'tasks:[hip2hip/gemm_f32]:lines#2' 'tasks:[hip2hip/gemm_f32]:repeated#0' 'tasks:[hip2hip/gemm_f32]:clipped#0' \
      'tasks:[triton2triton/liger_geglu_bf16]:lines#3' 'tasks:[triton2triton/liger_geglu_bf16]:clipped#0' \
      'tasks:[triton2triton/liger_geglu_bf16]:repeated#0' \
      'tasks:[triton2triton/liger_geglu_bf16]:lines:[0]~requirements\.txt\)$' \
      'metrics:AgentKernelArena score (mean points, judged tasks):overall=0.0 (4 judged)' \
      'metrics:AgentKernelArena score (mean points, judged tasks):triton2triton=0.0 (3 judged)'
    ;;

  fallback)  # tasks that fell back to their baselines (ARENA_CANDIDATE_FALLBACK=baseline): the compile
    # gate's label candidate_fallback marks them in scores.json, summary.md, index.html and junit.xml
    cp -r all_pass "$work/fallback"
    xml=$(ls "$work"/fallback/Testing/*/Test.xml)
    # label hip2hip/gemm_f32/compile as a fallback (as configure does)
    awk '/<Name>hip2hip\/gemm_f32\/compile<\/Name>/ {mark=1} mark && /<Label>compile<\/Label>/ {print; print "\t\t\t\t<Label>candidate_fallback</Label>"; mark=0; next} {print}' \
      "$xml" >"$xml.new" && mv "$xml.new" "$xml"
    "$score" "$work/fallback" --results-dir "$results" --run r
    "$check" "$results/r/scores.json" \
      'tasks:[hip2hip/gemm_f32]:candidate_fallback=true' 'tasks:[hip2hip/gelu_f16]:candidate_fallback=false' \
      'tasks:[hip2hip/gemm_f32]:notes:[0]~its baseline was judged' 'warnings:[0]~^1 task\(s\) had no candidate file'
    contains "$results/r/summary.md" '^\| hip2hip/gemm_f32 \(baseline \(fallback\)\) \|'
    contains "$results/r/index.html" 'baseline \(fallback\): no candidate file'
    contains "$results/r/junit.xml" '<property name="candidate_fallback" value="true"/>'
    ;;

  junit_and_fail_on)  # junit.xml in every scored run: a test case per gate, the task's verdict and
    # speedup as properties; --fail-on decides the exit status (3 when the policy is broken)
    "$score" failures --results-dir "$results" --run r --junit "$work/copy.xml" >"$work/stdout"
    cmp "$results/r/junit.xml" "$work/copy.xml" || fail "--junit wrote something else than junit.xml"
    junit=$results/r/junit.xml
    contains "$junit" '^<testsuites name="KernelArena r" tests="[0-9]+" failures="[0-9]+" errors="0" skipped="[0-9]+"'
    contains "$junit" '<testcase classname="hip2hip.f_slower" name="perf" file="hip2hip/f_slower/perf" time="[0-9.]+">'
    contains "$junit" '<property name="verdict" value="SLOWER"/>'
    contains "$junit" '<property name="speedup" value="0.8"/>'
    contains "$junit" '<failure type="failed" message="compile: .*expected an expression'
    contains "$junit" '<skipped message="not run: '
    contains "$junit" '<system-out>hip2hip/f_slower: correct; speedup 0.800 \[0.790, 0.810\] SLOWER; points 200.0'
    if command -v python3 >/dev/null; then
      python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$junit" || fail "junit.xml is not XML"
    fi
    set +e
    "$score" failures --results-dir "$results" --run r2 --fail-on SLOWER >"$work/slower" 2>&1; rc_slower=$?
    "$score" all_pass --results-dir "$results" --run r3 --fail-on SLOWER,INCORRECT >"$work/fine" 2>&1; rc_fine=$?
    "$score" failures --results-dir "$results" --run r4 --fail-on incorrect >"$work/incorrect" 2>&1; rc_incorrect=$?
    "$score" all_pass --results-dir "$results" --run r5 --fail-on FASTEST >"$work/usage" 2>&1; rc_usage=$?
    set -e
    [ $rc_slower = 3 ] || fail "--fail-on SLOWER with a SLOWER task exited $rc_slower, not 3"
    contains "$work/slower" '^  SLOWER: hip2hip/f_slower \(speedup 0.800'
    [ -e "$results/r2/scores.json" ] || fail "--fail-on must still write the run"
    [ $rc_fine = 0 ] || fail "--fail-on SLOWER,INCORRECT on an all-pass run exited $rc_fine"
    contains "$work/fine" 'no task breaks the policy'
    [ $rc_incorrect = 3 ] || fail "--fail-on INCORRECT exited $rc_incorrect"
    contains "$work/incorrect" '^  INCORRECT: hip2hip/a_compile_fail'
    [ $rc_usage = 2 ] || fail "--fail-on FASTEST (unknown) exited $rc_usage, not 2"
    ;;

  malformed)  # a broken closing tag on line 125: a clear error, no output folder
    set +e
    "$score" malformed --results-dir "$results" --run r 2>"$work/stderr"
    rc=$?
    set -e
    cat "$work/stderr"
    [ "$rc" -ne 0 ] || fail "arena-score accepted malformed XML"
    contains "$work/stderr" 'malformed/Testing/[0-9-]+/Test\.xml:125: malformed XML: XML_ERROR_MISMATCHED_ELEMENT'
    [ ! -e "$results" ] || fail "an output folder was created: $(ls -A "$results")"
    # the same with a good file first: still nothing is written
    set +e
    "$score" all_pass malformed --results-dir "$results" --run r 2>"$work/stderr"
    rc=$?
    set -e
    [ "$rc" -ne 0 ] || fail "arena-score accepted malformed XML after a good one"
    [ ! -e "$results/r" ] || fail "partial output written"
    ;;

  shards)  # two shards: gelu_f16/compile in both (duplicate), gemm_f32/correct_unseen passed in one and failed in the other
    for order in "shard_a shard_b" "shard_b shard_a"; do
      run=r-${order// /-}
      # shellcheck disable=SC2086
      "$score" $order --results-dir "$results" --run "$run"
      "$check" "$results/$run/scores.json" \
        inputs#2 overall:tasks=3 overall:correct=2 overall:conflicts=1 overall:compile_rate=1 \
        overall:correct_unseen_rate=0.666667 overall:geomean_speedup_correct=3.001642 \
        overall:geomean_speedup_all=2.080843 overall:aka_score_mean=301.6373 \
        duplicates#1 'duplicates:[0]:test=hip2hip/gelu_f16/compile' 'duplicates:[0]:outcome=passed' \
        conflicts#1 'conflicts:[0]:test=hip2hip/gemm_f32/correct_unseen' 'conflicts:[0]:records#2' \
        'tasks:[hip2hip/gemm_f32]:gates:correct_unseen:outcome=conflict' 'tasks:[hip2hip/gemm_f32]:correct=false' \
        'tasks:[hip2hip/gemm_f32]:aka_score=20' \
        'tasks:[hip2hip/gemm_f32]:errors:[0]~^correct_unseen: conflicting outcomes across Test.xml files: ' \
        'tasks:[hip2hip/reduce_sum]:correct=true' 'tasks:[hip2hip/reduce_sum]:speedup=4.402666' \
        'tasks:[hip2hip/reduce_sum]:gates:compile:files#1' 'tasks:[hip2hip/reduce_sum]:gates:perf:files#1'
      contains "$results/$run/summary.md" '^## Conflicts \(counted as failed\)'
      contains "$results/$run/summary.md" '^- `hip2hip/gemm_f32/correct_unseen`: (passed|failed) in `shard_'
      contains "$results/$run/summary.md" '^## Duplicates'
    done
    ;;

  hosts)  # shards of one run recorded on different machines (hosts_*: another site, host, build root and, for
    # hosts_2, GPU each; every result path points into a build tree that no longer exists)
    roots=()
    for d in hosts_0 hosts_1 hosts_2; do
      xml=$(ls $d/Testing/*/Test.xml)
      contains "$xml" "^	Hostname=\"gpu-node-0$((${d#hosts_} + 1))\"" # hosts_0 ran on gpu-node-01, ...
      root=$(grep -oE '"--result" "[^"]*/arena/results/' "$xml" | head -1 | sed -E 's/"--result" "//; s#/arena/results/$##')
      if [ -z "$root" ] || [ -e "$root" ]; then fail "$xml: recorded build root '$root' should name a vanished build tree"; fi
      roots+=("$root")
    done
    [ "$(printf '%s\n' "${roots[@]}" | sort -u | wc -l)" -eq 3 ] || fail "the shards share a build root: ${roots[*]}"
    # the three shards make all_pass's run (same results, same numbers), in any order
    for order in "hosts_0 hosts_1 hosts_2" "hosts_2 hosts_0 hosts_1"; do
      run=r-${order// /-}
      # shellcheck disable=SC2086
      "$score" $order --results-dir "$results" --run "$run"
      first=${order%% *}
      "$check" "$results/$run/scores.json" \
        inputs#3 "inputs:[0]:site=gpu-node-0$((${first#hosts_} + 1))" 'inputs:[0]:fuzz_seeds:[0]~^1519564625$' \
        'inputs:[1]:fuzz_seeds#1' 'inputs:[2]:build_name=Linux-nvidia-solution' \
        overall:tasks=5 overall:judged=5 overall:compile_rate=1 overall:correct_seen_rate=1 \
        overall:correct_unseen_rate=1 overall:correct=5 overall:geomean_speedup_correct=2.782221 \
        overall:geomean_speedup_all=2.782221 overall:fast_p:1.0=0.8 overall:aka_score_mean=459.6011 \
        duplicates#0 conflicts#0 tasks#5 \
        'tasks:[hip2hip/gelu_f16]:gates:perf:files:[0]~^hosts_0/' 'tasks:[hip2hip/softmax_rows]:gates:compile:files:[0]~^hosts_0/' \
        'tasks:[hip2hip/gemm_f32]:gates:correct_unseen:files:[0]~^hosts_1/' 'tasks:[hip2hip/transpose_2d]:gates:perf:files#1' \
        'tasks:[hip2hip/reduce_sum]:gates:perf:result~/fixtures/hosts_2/arena/results/hip2hip/reduce_sum/perf\.json$' \
        'tasks:[hip2hip/gemm_f32]:gates:correct_unseen:result~/fixtures/hosts_1/arena/results/' \
        'tasks:[hip2hip/gelu_f16]:notes#0' 'tasks:[hip2hip/gemm_f32]:notes#0' 'tasks:[hip2hip/reduce_sum]:notes#0' \
        'tasks:[hip2hip/softmax_rows]:notes#0' 'tasks:[hip2hip/transpose_2d]:notes#0' \
        'tasks:[hip2hip/gelu_f16]:speedup=2.046454' 'tasks:[hip2hip/reduce_sum]:speedup=4.402666' \
        'tasks:[hip2hip/softmax_rows]:verdict=SAME' 'tasks:[hip2hip/transpose_2d]:configs#4' \
        'tasks:[hip2hip/gemm_f32]:gates:correct_unseen:configs_passed=14' \
        'tasks:[hip2hip/gelu_f16]:device=NVIDIA H200' 'tasks:[hip2hip/reduce_sum]:device=NVIDIA H100 80GB HBM3' \
        warnings#1 'warnings:[0]=perf gates measured on 2 different devices (NVIDIA H100 80GB HBM3: 1 task, NVIDIA H200: 4 tasks): each speedup is over the baseline on the same device, but the totals mix devices'
      contains "$results/$run/summary.md" 'Warning:\*\* perf gates measured on 2 different devices'
    done
    # shard 1 run again on gpu-node-04, where gemm_f32's correct_unseen failed (and so its perf did not run):
    # named conflicts, counted as failed; transpose_2d's four gates are duplicates
    for order in "hosts_0 hosts_1 hosts_2 hosts_rerun" "hosts_rerun hosts_2 hosts_1 hosts_0"; do
      run=c-${order// /-}
      # shellcheck disable=SC2086
      "$score" $order --results-dir "$results" --run "$run"
      "$check" "$results/$run/scores.json" \
        inputs#4 overall:tasks=5 overall:correct=4 overall:conflicts=2 overall:correct_unseen_rate=0.8 \
        overall:generalization_gap=0.2 overall:geomean_speedup_correct=2.799866 overall:geomean_speedup_all=2.278819 \
        overall:fast_p:1.0=0.6 overall:aka_score_mean=385.3462 \
        conflicts#2 'conflicts:[hip2hip/gemm_f32/correct_unseen]:records#2' \
        'conflicts:[hip2hip/gemm_f32/perf]:records#2' duplicates#6 'duplicates:[hip2hip/transpose_2d/perf]:files#2' \
        'duplicates:[hip2hip/gemm_f32/compile]:outcome=passed' \
        'tasks:[hip2hip/gemm_f32]:gates:correct_unseen:outcome=conflict' 'tasks:[hip2hip/gemm_f32]:correct=false' \
        'tasks:[hip2hip/gemm_f32]:aka_score=20' 'tasks:[hip2hip/gemm_f32]:gates:perf:outcome=conflict' \
        'tasks:[hip2hip/gemm_f32]:errors:[0]~^correct_unseen: conflicting outcomes across Test.xml files: (passed in hosts_1/.*, failed in hosts_rerun/|failed in hosts_rerun/.*, passed in hosts_1/)' \
        'tasks:[hip2hip/transpose_2d]:correct=true' 'tasks:[hip2hip/transpose_2d]:speedup=6.818' \
        'warnings:[0]=2 test(s) with conflicting outcomes across Test.xml files: counted as failed'
      contains "$results/$run/summary.md" '^- `hip2hip/gemm_f32/correct_unseen`: (passed|failed) in `hosts_(1|rerun)/'
    done
    # a shard from a build configured with another fuzz seed is not part of this run: refused, nothing written
    set +e
    "$score" hosts_0 hosts_1 hosts_other_seed --results-dir "$results" --run mixed 2>"$work/stderr"
    rc=$?
    set -e
    cat "$work/stderr"
    [ "$rc" -eq 1 ] || fail "shards with different fuzz seeds were accepted (exit $rc)"
    contains "$work/stderr" 'not shards of one run: .*fuzz seed 1000000007 in hosts_other_seed/Testing/[0-9-]+/Test\.xml; fuzz seed 1519564625 in hosts_0/Testing/[0-9-]+/Test\.xml, hosts_1/'
    [ ! -e "$results/mixed" ] || fail "a run folder was written for shards with different fuzz seeds"
    "$score" hosts_0 hosts_1 hosts_other_seed --results-dir "$results" --run mixed --allow-mixed-seeds
    "$check" "$results/mixed/scores.json" overall:tasks=5 overall:correct=5 'inputs:[2]:fuzz_seeds:[0]~^1000000007$' \
      'warnings:[0]~^the Test\.xml files used different fuzz seeds \(fuzz seed 1000000007 in hosts_other_seed/'
    no_leftovers "$results"
    ;;

  compare)  # A vs B: a clear win, a clear loss, noise, a task that broke, one that was fixed, one bad in both
    "$score" compare_a --results-dir "$results" --run A >/dev/null
    "$score" compare_b --results-dir "$results" --run B >/dev/null
    "$score" compare "$results/A/scores.json" "$results/B/scores.json" --out "$results/A-vs-B" >"$work/compare.out"
    "$check" "$results/A-vs-B/compare.json" \
      'tasks:[cmp/win]:verdict=better' 'tasks:[cmp/win]:ratio=1.33333' 'tasks:[cmp/win]:ratio_ci95_low=1.307' \
      'tasks:[cmp/loss]:verdict=worse' 'tasks:[cmp/loss]:ratio=0.75' 'tasks:[cmp/loss]:ratio_ci95_high=0.763' \
      'tasks:[cmp/noise]:verdict=no detectable change' 'tasks:[cmp/noise]:ratio=1.01667' \
      'tasks:[cmp/noise]:ratio_ci95_low=0.975' 'tasks:[cmp/noise]:ratio_ci95_high=1.060' \
      'tasks:[cmp/broke]:verdict=worse' 'tasks:[cmp/broke]:correctness_changes:[0]=correct_unseen: yes -> no' \
      'tasks:[cmp/fixed]:verdict=better' 'tasks:[cmp/both_bad]:verdict=no detectable change' \
      'overall:verdicts:better=2' 'overall:verdicts:worse=2' 'overall:verdicts:no detectable change=2' \
      overall:tasks_with_both_speedups=3 overall:geomean_ratio=1.0055 'overall:verdict=no detectable change' \
      overall:metrics:correct_rate:change=0 overall:metrics:geomean_speedup_all:a=1.29332 \
      suites:cmp:metrics:tasks:b=6
    contains "$work/compare.out" '^\| cmp/win \| correct, 1\.500 \[1\.480, 1\.520\] \| correct, 2\.000 \[1\.970, 2\.030\] \| 1\.333 \[1\.307, 1\.361\] \| \*\*better\*\* \|'
    contains "$results/A-vs-B/compare.md" '^\| cmp/loss .* \*\*worse\*\*'
    # run folders name the same runs as their scores.json
    "$score" compare "$results/A" "$results/B" >"$work/compare-folders.out"
    cmp -s "$work/compare.out" "$work/compare-folders.out" || fail "compare of run folders differs from compare of their scores.json"
    # a comparison folder is never overwritten either
    if "$score" compare "$results/A/scores.json" "$results/B/scores.json" --out "$results/A-vs-B" >/dev/null 2>&1; then
      fail "compare overwrote an existing --out folder"
    fi
    ;;

  run_folders)  # atomic run folders, never overwritten: default names get -2, explicit names are refused
    "$score" all_pass --results-dir "$results" >"$work/first.out"
    tag=$(head -1 all_pass/Testing/TAG)
    [ -f "$results/$tag/scores.json" ] || fail "no $results/$tag/scores.json"
    sum=$(cksum <"$results/$tag/scores.json")
    "$score" all_pass --results-dir "$results" >"$work/second.out"
    contains "$work/second.out" "-> .*/$tag-2\$"
    "$check" "$results/$tag-2/scores.json" "run=$tag-2"
    "$check" "$results/$tag/scores.json" "run=$tag"
    set +e
    "$score" failures --results-dir "$results" --run "$tag" 2>"$work/stderr"
    rc=$?
    set -e
    [ "$rc" -ne 0 ] || fail "an explicit --run that exists was not refused"
    contains "$work/stderr" 'already exists: another run.s results are never overwritten'
    [ "$(cksum <"$results/$tag/scores.json")" = "$sum" ] || fail "the existing run was changed"
    no_leftovers "$results"
    [ "$(ls -A "$results" | wc -l)" -eq 2 ] || fail "unexpected folders: $(ls -A "$results")"
    ;;

  gate_results_and_missing_json)  # result files found through --gate-results; reported per task when not found,
    # and then no gate gives numbers (they come only from result files)
    mkdir -p "$work/elsewhere" "$work/flat"
    xml=$(ls all_pass/Testing/*/Test.xml)
    cp "$xml" "$work/flat/Test.xml"  # not under Testing/<tag>/: no build folder to look in
    cp -r all_pass/arena/results "$work/elsewhere/"
    "$score" "$work/flat/Test.xml" --results-dir "$results" --run unfound
    "$check" "$results/unfound/scores.json" overall:correct=0 overall:unjudged=5 overall:compiled=5 \
      'tasks:[hip2hip/gelu_f16]:device=null' 'tasks:[hip2hip/gelu_f16]:speedup=null' \
      'tasks:[hip2hip/gelu_f16]:unjudged_reason~^perf passed but recorded no speedup' \
      "tasks:[hip2hip/gelu_f16]:notes:[0]~^agent: result file missing: .*flat/Test\.xml is not in a build folder's Testing/<tag>/" \
      "tasks:[hip2hip/gelu_f16]:notes:[1]~^compile: result file missing: .*flat/Test\.xml is not in a build folder's Testing/<tag>/" \
      'warnings:[0]~^21 gate result file'
    "$score" "$work/flat/Test.xml" --results-dir "$results" --run found --gate-results "$work/elsewhere/results"
    "$check" "$results/found/scores.json" overall:correct=5 overall:geomean_speedup_correct=2.782221 \
      'tasks:[hip2hip/gelu_f16]:device=NVIDIA H200' 'tasks:[hip2hip/gelu_f16]:fraction_of_peak=0.522312' \
      'tasks:[hip2hip/gelu_f16]:notes#0' warnings#0 \
      "tasks:[hip2hip/gelu_f16]:gates:perf:result~elsewhere/results/hip2hip/gelu_f16/perf\.json\$"
    ;;

  schema_refused)  # a result file of another schema version, or without a key the schema requires: refused,
    # naming the file and what is wrong; nothing written
    for breakage in version missing_key; do
      cp -r all_pass "$work/$breakage"
      perf=$work/$breakage/arena/results/hip2hip/gemm_f32/perf.json
      if [ $breakage = version ]; then
        sed -i 's/"schema_version": 1/"schema_version": 99/' "$perf"
        want='gemm_f32/perf\.json: schema_version 99 is not one this reader knows \(it reads 1\)'
      else
        sed -i '/"verdict": "FASTER",\?$/d' "$perf"  # the overall and every configuration's verdict
        want="gemm_f32/perf\\.json: not a perf result of schema 1: .*missing required key 'verdict'"
      fi
      grep -q '"schema_version": 1' "$work/$breakage/arena/results/hip2hip/gelu_f16/perf.json" || fail "fixture not in schema 1"
      set +e
      "$score" "$work/$breakage" --results-dir "$results" --run $breakage 2>"$work/$breakage.stderr"
      rc=$?
      set -e
      cat "$work/$breakage.stderr"
      [ "$rc" -eq 1 ] || fail "a result file with a broken $breakage was accepted (exit $rc)"
      contains "$work/$breakage.stderr" "$want"
      [ ! -e "$results/$breakage" ] || fail "a run folder was written despite the broken $breakage"
    done
    ;;

  html_renders)  # index.html renders in a real browser, and its table sorts
    chromium=/usr/bin/chromium
    [ -x "$chromium" ] || {
      echo "SKIPPED: $chromium not found"
      exit 77
    }
    "$score" all_pass --results-dir "$results" --run r >/dev/null
    flags=(--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
      --disable-sync --no-first-run "--user-data-dir=$work/chromium")
    shot() { timeout 120 "$chromium" "${flags[@]}" "--screenshot=$1" --window-size=1200,1600 "$2" >/dev/null 2>&1 || true; }
    shot "$work/page.png" "file://$results/r/index.html"
    [ -s "$work/page.png" ] || fail "chromium wrote no screenshot"
    [ "$(head -c 8 "$work/page.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "not a PNG"
    # IHDR width and height (bytes 16..23, big-endian)
    dims=$(od -An -tu1 -j16 -N8 "$work/page.png" | tr -s ' ' | sed 's/^ //')
    read -r w1 w2 w3 w4 h1 h2 h3 h4 <<<"$dims"
    width=$(((w1 << 24) | (w2 << 16) | (w3 << 8) | w4))
    height=$(((h1 << 24) | (h2 << 16) | (h3 << 8) | h4))
    [ "$width" -eq 1200 ] && [ "$height" -eq 1600 ] || fail "screenshot is ${width}x${height}, expected 1200x1600"
    : >"$work/blank.html"
    shot "$work/blank.png" "file://$work/blank.html"
    page=$(stat -c %s "$work/page.png")
    blank=$(stat -c %s "$work/blank.png" 2>/dev/null || echo 0)
    echo "screenshot $page bytes; blank page $blank bytes"
    [ "$page" -gt 40000 ] && [ "$page" -gt $((blank * 5)) ] || fail "the screenshot looks empty ($page bytes, blank page $blank)"
    # the JS sorts on load from #sort=<column>[-desc]
    dom() { timeout 120 "$chromium" "${flags[@]}" --dump-dom "$1" 2>/dev/null | grep -oE 'data-task="[^"]*"' | head -1; }
    [ "$(dom "file://$results/r/index.html")" = 'data-task="hip2hip/gelu_f16"' ] || fail "unsorted order changed"
    [ "$(dom "file://$results/r/index.html#sort=speedup-desc")" = 'data-task="hip2hip/transpose_2d"' ] ||
      fail "sorting by speedup (descending) did not put transpose_2d first"
    [ "$(dom "file://$results/r/index.html#sort=speedup")" = 'data-task="hip2hip/softmax_rows"' ] ||
      fail "sorting by speedup (ascending) did not put softmax_rows first"
    ;;

  *)
    fail "unknown case $name"
    ;;
esac
echo "PASSED: $name"
