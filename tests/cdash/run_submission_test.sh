#!/usr/bin/env bash
# Real CDash submissions of cmake/ArenaDashboard.cmake to a loopback receiver
# (cdash_receiver), with the throwaway project in tests/cdash/project, and checks of what
# arrived. Five dashboard runs, each against its own receiver:
#   pass       all tests pass or skip: exit 0; PUTs of Configure/Build/Test/Done.xml with
#              matching MD5s; the speedup measurement in Test.xml; the bearer token from
#              CDASH_TOKEN; URL from the ARENA_CDASH_SUBMIT_URL environment variable
#   fail       a test fails: exit non-zero, but only after Test.xml arrived; no token sent;
#              -DSUBMIT_URL wins over the environment
#   configure  configure fails: Configure.xml still arrives, the script names ctest_configure
#   cdash      the server answers HTTP 200 with <status>ERROR</status>: the script fails
#              naming ctest_submit (ctest_submit's own return value is 0 then)
#   http       the server answers HTTP 503: the script fails naming ctest_submit
#
#   run_submission_test.sh RECEIVER CTEST SOURCE_ROOT WORK_DIR CXX_COMPILER
#
# Exit 0: all checks passed; 1: a check failed; 77: no usable loopback port.
# WORK_DIR keeps every stored request, each run's output and ctest's submission logs.
set -uo pipefail
if [ $# -ne 5 ]; then
  echo "usage: $0 RECEIVER CTEST SOURCE_ROOT WORK_DIR CXX_COMPILER" >&2
  exit 2
fi
receiver=$1 ctest=$2 root=$3 work=$4 cxx=$5
script="$root/cmake/ArenaDashboard.cmake"
project="$root/tests/cdash/project"
token="arena-test-token-$$"
site="arena-cdash-test"

rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

# Keep the caller's environment out of it: proxies would divert loopback requests, and a
# real token or submit URL must never reach the receiver (or a real server).
unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY
unset CDASH_TOKEN ARENA_CDASH_SUBMIT_URL ARENA_CDASH_TLS_VERIFY CTEST_PARALLEL_LEVEL
for v in $(compgen -e); do
  case $v in CTEST_RESOURCE_GROUP*) unset "$v" ;; esac
done
export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok:   $*"; }

receiver_pid=""
stop_receiver() {
  if [ -n "$receiver_pid" ]; then
    kill "$receiver_pid" 2>/dev/null
    wait "$receiver_pid" 2>/dev/null
    receiver_pid=""
  fi
}
trap stop_receiver EXIT

# start_receiver NAME [receiver options]: sets $url; requests land in $work/NAME/.
start_receiver() {
  local name=$1
  shift
  mkdir -p "$work/$name"
  "$receiver" --dir "$work/$name" --port-file "$work/$name.port" --timeout 50 "$@" \
    >"$work/$name.receiver.log" 2>&1 &
  receiver_pid=$!
  local i
  for i in $(seq 100); do
    [ -s "$work/$name.port" ] && break
    if ! kill -0 "$receiver_pid" 2>/dev/null; then
      wait "$receiver_pid"
      local rc=$?
      receiver_pid=""
      cat "$work/$name.receiver.log"
      if [ "$rc" -eq 77 ]; then
        echo "SKIP: no usable loopback port for the receiver (see above)"
        exit 77
      fi
      echo "FAIL: the receiver exited with $rc before listening"
      exit 1
    fi
    sleep 0.1
  done
  [ -s "$work/$name.port" ] || { echo "FAIL: the receiver wrote no port in 10 s"; exit 1; }
  url="http://127.0.0.1:$(cat "$work/$name.port")/submit.php?project=KernelArena"
}

# dashboard NAME [ctest arguments before -S]: runs the script, output in NAME.log, exit
# status in $rc; copies ctest's submission log to NAME.submit.log.
dashboard() {
  local name=$1
  shift
  local start=$SECONDS
  "$ctest" "$@" -DSITE="$site" -DSOURCE_DIR="$project" -DBINARY_DIR="$work/build-$name" \
    -DLABEL='^demo$' -DPARALLEL_LEVEL=2 -DBUILD_JOBS=2 -DSUBMIT_RETRY_COUNT=0 \
    -S "$script" >"$work/$name.log" 2>&1
  rc=$?
  cp "$work/build-$name"/Testing/Temporary/LastSubmit_*.log "$work/$name.submit.log" 2>/dev/null
  echo "---- $name: ctest -S exited $rc after $((SECONDS - start)) s ($work/$name.log)"
}

show() { sed 's/^/    | /' "$1"; }

# Stored requests whose FileName ends with SUFFIX (NNNN ids, in arrival order).
requests_for() { grep -l "^param FileName=.*$2\$" "$work/$1"/*.meta 2>/dev/null | sed 's/\.meta$//'; }

# The checks every accepted submission must pass.
check_uploads() {
  local name=$1 want_token=$2
  local before=$failures metas n
  metas=$(ls "$work/$name"/*.meta 2>/dev/null)
  n=$(echo "$metas" | grep -c meta)
  echo "  $n request(s) arrived:"
  show "$work/$name/index.txt" 2>/dev/null
  local expected=(Configure.xml Build.xml Test.xml Done.xml)
  local order="" part req
  for part in "${expected[@]}"; do
    req=$(requests_for "$name" "___XML___$part" | head -1)
    if [ -z "$req" ]; then
      fail "$name: no PUT with FileName ending ___XML___$part"
      continue
    fi
    order="$order $(basename "$req")"
    local meta="$req.meta"
    grep -qx 'method PUT' "$meta" || fail "$name: $part was not sent with PUT"
    grep -qx "param site=$site" "$meta" || fail "$name: $part: site query parameter is not $site"
    grep -q '^param stamp=[0-9]\{8\}-[0-9]\{4\}-Experimental$' "$meta" ||
      fail "$name: $part: no stamp=<tag>-Experimental query parameter"
    grep -qix 'header Content-Type: text/xml' "$meta" || fail "$name: $part: no Content-Type: text/xml"
    local md5 sum
    md5=$(sed -n 's/^param MD5=//p' "$meta")
    sum=$(md5sum <"$req.body" | cut -d' ' -f1)
    [ -n "$md5" ] && [ "$md5" = "$sum" ] || fail "$name: $part: MD5 parameter '$md5' != md5 of the body '$sum'"
    if [ "$want_token" = yes ]; then
      grep -qx "header Authorization: Bearer $token" "$meta" || fail "$name: $part arrived without 'Authorization: Bearer <CDASH_TOKEN>'"
    else
      ! grep -qi '^header Authorization:' "$meta" || fail "$name: $part carried an Authorization header with no CDASH_TOKEN set"
    fi
  done
  local sorted
  sorted=$(echo "$order" | tr ' ' '\n' | sed '/^$/d' | sort | tr '\n' ' ')
  [ "$(echo "$order" | tr ' ' '\n' | sed '/^$/d' | tr '\n' ' ')" = "$sorted" ] ||
    fail "$name: parts arrived out of order ($order)"
  [ "$failures" -eq "$before" ] &&
    ok "$name: PUTs of Configure.xml, Build.xml, Test.xml, Done.xml (requests$order), MD5s match the bodies"
}

test_xml() { echo "$(requests_for "$1" ___XML___Test.xml | head -1).body"; }

# ---------------------------------------------------------------------------------------------
echo "== pass: every test passes or skips; token and URL from the environment"
start_receiver pass
CDASH_TOKEN="$token" ARENA_CDASH_SUBMIT_URL="$url" \
  dashboard pass --no-compress-output \
  "-DCONFIGURE_OPTIONS=-DCMAKE_CXX_COMPILER=$cxx;-DARENA_CANDIDATE=solution" \
  -DJUNIT_FILE=junit-pass.xml
stop_receiver
if [ "$rc" -ne 0 ]; then
  fail "pass: ctest -S exited $rc, expected 0"
  show "$work/pass.log"
fi
check_uploads pass yes
xml=$(test_xml pass)
if [ -f "$xml" ]; then
  grep -A1 '<NamedMeasurement type="numeric/double" name="speedup">' "$xml" | grep -q '<Value>1.5</Value>' &&
    ok "pass: Test.xml carries NamedMeasurement speedup = 1.5 (numeric/double)" ||
    fail "pass: Test.xml has no numeric/double NamedMeasurement speedup with value 1.5"
  grep -A1 'name="verdict">' "$xml" | grep -q '<Value>FASTER</Value>' ||
    fail "pass: Test.xml has no text/string measurement verdict = FASTER"
  grep -A10 '<Test Status="notrun">' "$xml" | grep -q '<Name>demo/skip</Name>' &&
    grep -q '<Value>SKIP_RETURN_CODE=77</Value>' "$xml" &&
    ok "pass: demo/skip is reported as not run with SKIP_RETURN_CODE=77" ||
    fail "pass: demo/skip is not reported as skipped (SKIP_RETURN_CODE=77)"
  grep -A2 '<Test Status="passed">' "$xml" | grep -q '<Name>demo/resources</Name>' &&
    ok "pass: demo/resources got a GPU allocation (resource spec file <build>/arena_resources.json used)" ||
    fail "pass: demo/resources did not pass: the resource spec file was not used"
  ! grep -q 'other/excluded' "$xml" && ok "pass: the label filter kept other/excluded out" ||
    fail "pass: other/excluded ran despite LABEL=^demo\$"
  grep -q 'demo: last line of the measure test' "$xml" &&
    ok "pass: passed-test output kept beyond CTest's default 1 KiB" ||
    fail "pass: the measure test's output was clipped"
  name=$(sed -n 's/^param build=//p' "$(requests_for pass ___XML___Test.xml | head -1).meta")
  [[ "$name" == *-auto-solution ]] && grep -q "BuildName=\"$name\"" "$xml" &&
    ok "pass: default build name '$name' (<OS>-<platform>-<candidate>)" ||
    fail "pass: build name '$name' is not <OS>-auto-solution"
else
  fail "pass: no Test.xml arrived"
fi
[ -f "$work/junit-pass.xml" ] && grep -q '<testcase name="demo/measure"' "$work/junit-pass.xml" &&
  ok "pass: JUnit written to $work/junit-pass.xml (relative path taken from the current directory)" ||
  fail "pass: no JUnit file at $work/junit-pass.xml"
! grep -q "$token" "$work/pass.log" || fail "pass: the token appears in ctest's output"
grep -q 'Submission successful' "$work/pass.submit.log" 2>/dev/null &&
  ok "pass: ctest's submission log says 'Submission successful' ($work/pass.submit.log)" ||
  fail "pass: no 'Submission successful' in ctest's submission log"
grep -q "ArenaDashboard: ctest_submit: ok (CDash build id '[0-9]" "$work/pass.log" &&
  ok "pass: the buildId of the answer reached ctest_submit(BUILD_ID)" ||
  fail "pass: ctest_submit returned no CDash build id"

# ---------------------------------------------------------------------------------------------
echo "== fail: a test fails; no token; -DSUBMIT_URL over the environment"
start_receiver fail
# A wrong URL in the environment: -DSUBMIT_URL must win.
ARENA_CDASH_SUBMIT_URL="http://127.0.0.1:9/submit.php?project=wrong" \
  dashboard fail "-DCONFIGURE_OPTIONS=-DCMAKE_CXX_COMPILER=$cxx;-DDEMO_FAIL=ON" -DSUBMIT_URL="$url"
stop_receiver
if [ "$rc" -eq 0 ]; then
  fail "fail: ctest -S exited 0 with a failing test"
else
  ok "fail: ctest -S exited $rc with a failing test"
fi
check_uploads fail no
xml=$(test_xml fail)
grep -A2 '<Test Status="failed">' "$xml" 2>/dev/null | grep -q '<Name>demo/fails</Name>' &&
  ok "fail: Test.xml reports demo/fails as failed" || fail "fail: Test.xml does not report demo/fails as failed"
submitted=$(grep -n 'ArenaDashboard: ctest_submit: ok' "$work/fail.log" | head -1 | cut -d: -f1)
reported=$(grep -n 'ArenaDashboard: failed step(s):' "$work/fail.log" | head -1 | cut -d: -f1)
if [ -n "$submitted" ] && [ -n "$reported" ] && [ "$submitted" -lt "$reported" ] &&
  grep -q 'ctest_test (return value.*demo/fails' "$work/fail.log"; then
  ok "fail: the failure (ctest_test, naming demo/fails) is reported after the submission"
else
  fail "fail: expected 'ctest_submit: ok' and then 'failed step(s): ctest_test ... demo/fails'"
  show "$work/fail.log"
fi

# ---------------------------------------------------------------------------------------------
echo "== configure: configure fails"
start_receiver configure
dashboard configure "-DCONFIGURE_OPTIONS=-DCMAKE_CXX_COMPILER=$cxx;-DDEMO_CONFIGURE_ERROR=ON" -DSUBMIT_URL="$url"
stop_receiver
if [ "$rc" -ne 0 ] && grep -q 'failed step(s):' "$work/configure.log" &&
  grep -q '^ *ctest_configure (return value' "$work/configure.log"; then
  ok "configure: ctest -S exited $rc naming ctest_configure"
else
  fail "configure: expected a non-zero exit naming ctest_configure (exit $rc)"
  show "$work/configure.log"
fi
[ -n "$(requests_for configure ___XML___Configure.xml)" ] &&
  grep -q 'configure fails on purpose' "$(requests_for configure ___XML___Configure.xml | head -1).body" &&
  ok "configure: Configure.xml with the error arrived" || fail "configure: no Configure.xml with the error arrived"
[ -z "$(requests_for configure ___XML___Test.xml)" ] || fail "configure: Test.xml was submitted although configure failed"

# The server refuses the submission: ctest -S must fail, naming ctest_submit.
expect_submit_refused() {  # name, what the server does, receiver options...
  local name=$1 what=$2
  shift 2
  echo "== $name: the server answers $what"
  start_receiver "$name" "$@"
  dashboard "$name" "-DCONFIGURE_OPTIONS=-DCMAKE_CXX_COMPILER=$cxx" -DSUBMIT_URL="$url"
  stop_receiver
  if [ "$rc" -ne 0 ] && grep -q '^ *ctest_submit (' "$work/$name.log"; then
    ok "$name: ctest -S exited $rc naming ctest_submit"
  else
    fail "$name: expected a non-zero exit naming ctest_submit (exit $rc)"
    show "$work/$name.log"
  fi
}

# ---------------------------------------------------------------------------------------------
expect_submit_refused cdash "200 with <status>ERROR</status>" --cdash-status ERROR
expect_submit_refused http "HTTP 503" --http-status 503

echo "requests, outputs and submission logs: $work"
if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all checks passed"
