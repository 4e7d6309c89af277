# cmake -P: what a new user meets in the first hour, on a machine without a GPU (README.md,
# "Set up and run"). Each case runs the user's command and checks it stops early with a
# one-line reason, or does what the user meant, saying so.
#
#   cmake -DCASE=<case> -DSOURCE_DIR=<repo> -DWORK_DIR=<scratch> [-DPLATFORM=nvidia|amd]
#         [-DTOOLCHAIN=<build>/arena_toolchain.cmake] [-DSPEC_TOOL=<arena-spec>] -P check.cmake
cmake_minimum_required(VERSION 3.25)
foreach(_v CASE SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "check.cmake: -D${_v}= is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(evaluate "${SOURCE_DIR}/cmake/ArenaEvaluate.cmake")
set(slower "${SOURCE_DIR}/tests/candidates/slower")  # holds hip2hip/gelu_f16/kernel.hip

# The suites a user may name: each folder of tasks/ that holds a task, listed as the scripts list them.
file(GLOB _task_folders LIST_DIRECTORIES true RELATIVE "${SOURCE_DIR}/tasks" "${SOURCE_DIR}/tasks/*")
set(suites "")
foreach(_s IN LISTS _task_folders)
  file(GLOB _specs "${SOURCE_DIR}/tasks/${_s}/*/task.json")
  if(_specs)
    list(APPEND suites "${_s}")
  endif()
endforeach()
list(JOIN suites ", " suite_list)

function(fail what)
  message(FATAL_ERROR "FAILED: ${CASE}: ${what}\n--- output ---\n${out}")
endfunction()

# Runs a command; sets out (stdout + stderr), rc and secs in the caller.
macro(run)
  string(TIMESTAMP _t0 "%s")
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${WORK_DIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE out TIMEOUT 240)
  string(TIMESTAMP _t1 "%s")
  math(EXPR secs "${_t1} - ${_t0}")
endmacro()

function(expect_match regex)
  if(NOT out MATCHES "${regex}")
    fail("output does not match '${regex}'")
  endif()
endfunction()

function(expect_no_match regex)
  if(out MATCHES "${regex}")
    fail("output matches '${regex}'")
  endif()
endfunction()

# Stopped early, first line of output is the reason (and nothing was built).
function(expect_early_stop reason_regex max_secs)
  if(rc EQUAL 0)
    fail("exited 0; expected it to stop")
  endif()
  if(secs GREATER max_secs)
    fail("took ${secs} s to stop (more than ${max_secs} s)")
  endif()
  string(REGEX REPLACE "\n.*" "" first "${out}")
  if(NOT first MATCHES "${reason_regex}")
    fail("first line '${first}' does not give the reason '${reason_regex}'")
  endif()
  message("ok: stopped after ${secs} s: ${first}")
endfunction()

set(dry -DDRY_RUN=ON "-DBUILD_DIR=${WORK_DIR}/build" "-DRESULTS_DIR=${WORK_DIR}/results")

if(CASE STREQUAL "evaluate_candidate_means_no_agent")
  # -DCANDIDATE=<folder> alone judges the folder (no agent), and says so.
  run("${CMAKE_COMMAND}" "-DCANDIDATE=${slower}" ${dry} -P "${evaluate}")
  if(NOT rc EQUAL 0)
    fail("exit ${rc}")
  endif()
  expect_match("CANDIDATE=[^\n]*slower is judged as it is: no agent \\(AGENT=none\\)")
  expect_match("would configure with: [^\n]* -DARENA_CANDIDATE=[^\n]*/tests/candidates/slower -DARENA_AGENT= ")
  # the folder holds one task of the suite: that task is judged, and the others are named as left out
  expect_match("CANDIDATE=[^\n]*slower holds 1 of the [0-9]+ hip2hip tasks: judging those \\(gelu_f16\\) and leaving out the other [0-9]+")
  expect_match("would configure with: [^\n]*-DARENA_TASK_FILTER=\\^\\(gelu_f16\\)\\$")
  run("${CMAKE_COMMAND}" "-DCANDIDATE=${slower}" "-DTASKS=nosuch" ${dry} -P "${evaluate}")
  expect_early_stop("^ArenaEvaluate: TASKS names nosuch: no such task in suite hip2hip" 20)
  run("${CMAKE_COMMAND}" "-DTASKS=^gemm" ${dry} -P "${evaluate}")
  expect_match("ArenaEvaluate: suite hip2hip \\(tasks \\^\\(gemm_[^\n]*\\)\\$\\)")
  # with an agent as well: an error, not a silent A/A run
  run("${CMAKE_COMMAND}" "-DCANDIDATE=${slower}" -DAGENT=baseline ${dry} -P "${evaluate}")
  expect_early_stop("^ArenaEvaluate: CANDIDATE=.* and AGENT=baseline: the agent writes the candidates" 20)
  # and at configure: an agent and a candidate folder together are refused before anything is built
  run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}/configure" -DARENA_AGENT=baseline "-DARENA_CANDIDATE=${slower}"
      -DARENA_BUILD_FRAMEWORK_TESTS=OFF)
  if(rc EQUAL 0)
    fail("configure accepted ARENA_AGENT with an ARENA_CANDIDATE folder")
  endif()
  expect_match("ARENA_CANDIDATE is '[^']*slower' but ARENA_AGENT is 'baseline': the agent writes the candidates")
  expect_no_match("Building the task spec checker")

elseif(CASE STREQUAL "evaluate_settings_after_P")
  # -D after -P: cmake ignores it; the script applies it and says so. Unknown names are refused.
  run("${CMAKE_COMMAND}" ${dry} -P "${evaluate}" -DSUITE=torch2hip)
  if(NOT rc EQUAL 0)
    fail("exit ${rc}")
  endif()
  expect_match("note: -DSUITE=torch2hip came after -P, where cmake ignores it; applied")
  expect_match("ArenaEvaluate: suite torch2hip \\(every task\\),")
  run("${CMAKE_COMMAND}" ${dry} -DSUITES=hip2hip -P "${evaluate}")
  expect_early_stop("^ArenaEvaluate: -DSUITES is not a setting of this script: did you mean -DSUITE\\?" 20)
  run("${CMAKE_COMMAND}" ${dry} -DSUIT=hip2hip -P "${evaluate}")
  expect_early_stop("^ArenaEvaluate: -DSUIT is not a setting of this script: did you mean -DSUITE\\?" 20)
  run("${CMAKE_COMMAND}" ${dry} -DARENA_PERF_BUDGET_S=5 -P "${evaluate}")
  expect_early_stop("^ArenaEvaluate: -DARENA_PERF_BUDGET_S is a cache variable of the project[^\n]*-DEXTRA_ARGS=" 20)
  run("${CMAKE_COMMAND}" ${dry} -P "${evaluate}" SUITE=hip2hip)
  expect_early_stop("^ArenaEvaluate: 'SUITE=hip2hip' after the script" 20)

elseif(CASE STREQUAL "evaluate_checks_first")
  # A bad SUITE, AGENT, CANDIDATE or a RUN that exists stops the main job in seconds, before
  # configure (no build folder is made), each with its reason.
  set(no_dry "-DBUILD_DIR=${WORK_DIR}/build" "-DRESULTS_DIR=${WORK_DIR}/results")
  run("${CMAKE_COMMAND}" -DSUITE=nosuch ${no_dry} -P "${evaluate}")
  expect_early_stop("^ArenaEvaluate: SUITE=nosuch: no such suite \\(there are: ${suite_list}\\)" 20)
  run("${CMAKE_COMMAND}" -DAGENT=nosuch ${no_dry} -P "${evaluate}")
  expect_early_stop("^ArenaEvaluate: AGENT=nosuch: no such agent adapter \\(there are: baseline, .*replay, or none\\)" 20)
  run("${CMAKE_COMMAND}" "-DCANDIDATE=${WORK_DIR}/missing" ${no_dry} -P "${evaluate}")
  expect_early_stop("^ArenaEvaluate: CANDIDATE=.*/missing: not baseline, solution or an existing folder" 20)
  file(MAKE_DIRECTORY "${WORK_DIR}/empty")
  run("${CMAKE_COMMAND}" "-DCANDIDATE=${WORK_DIR}/empty" ${no_dry} -P "${evaluate}")
  expect_early_stop("^ArenaEvaluate: CANDIDATE=.*/empty holds no hip2hip/<task>/kernel\\.\\* \\(the suite's candidate file" 20)
  file(MAKE_DIRECTORY "${WORK_DIR}/results/taken")
  run("${CMAKE_COMMAND}" -DRUN=taken ${no_dry} -P "${evaluate}")
  expect_early_stop("^ArenaEvaluate: RUN=taken: .*/results/taken already exists" 20)
  if(EXISTS "${WORK_DIR}/build")
    fail("a build folder was made before the settings were checked")
  endif()

elseif(CASE STREQUAL "configure_checks_first")
  # The same mistakes at configure time stop it before anything is built or detected.
  foreach(pair "ARENA_SUITES=nosuch|ARENA_SUITES names 'nosuch': no such suite under .* \\(there are: ${suite_list}\\)"
               "ARENA_AGENT=nosuch|ARENA_AGENT is 'nosuch': no such agent adapter \\(there are: baseline,"
               "ARENA_CANDIDATE=${WORK_DIR}/missing|ARENA_CANDIDATE is '[^']*/missing': not baseline, solution or an existing folder"
               "ARENA_PERF_BUDGET_S=fast|ARENA_PERF_BUDGET_S is 'fast': must be a whole number"
               "ARENA_SUITES=hip2hip,triton2triton|ARENA_SUITES names 'hip2hip,triton2triton': a CMake list is separated by ';'")
    string(REPLACE "|" ";" pair "${pair}")
    list(GET pair 0 setting)
    list(GET pair 1 reason)
    file(REMOVE_RECURSE "${WORK_DIR}/configure")
    run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}/configure" "-D${setting}" -DARENA_BUILD_FRAMEWORK_TESTS=OFF)
    if(rc EQUAL 0)
      fail("configure accepted -D${setting}")
    endif()
    if(secs GREATER 60)
      fail("configure took ${secs} s to refuse -D${setting}")
    endif()
    expect_match("${reason}")
    expect_no_match("Building the task spec checker|KernelArena platform")
    message("ok: -D${setting} refused after ${secs} s")
  endforeach()
  # A candidate folder that holds none of the suite's tasks: refused at the end of configure,
  # before anything is built.
  file(MAKE_DIRECTORY "${WORK_DIR}/empty")
  file(REMOVE_RECURSE "${WORK_DIR}/configure")
  run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}/configure" "-DARENA_CANDIDATE=${WORK_DIR}/empty"
      -DARENA_SUITES=hip2hip -DARENA_BUILD_FRAMEWORK_TESTS=OFF -DARENA_SELFTEST=OFF "-DARENA_HIP_PLATFORM=${PLATFORM}")
  if(rc EQUAL 0)
    fail("configure accepted a candidate folder without any task")
  endif()
  expect_match("KernelArena: ARENA_CANDIDATE is '[^']*/empty' but none of the 46 task\\(s\\) has a candidate there \\(no file in [^ ]*/empty: hip2hip/")
  message("ok: an empty candidate folder refused after ${secs} s")

elseif(CASE STREQUAL "unseen_equal_to_seen")
  # An unseen configuration identical to a seen one is refused, naming both.
  run("${SPEC_TOOL}" check --any-folder "${SOURCE_DIR}/tests/data/unseen_is_seen/task.json")
  expect_early_stop("task\\.json: configs\\.unseen\\[1\\]: the same configuration as configs\\.seen\\[1\\] \\(N=4096\\): an unseen configuration must be one the candidate never sees" 20)

elseif(CASE STREQUAL "platform_auto_says_why")
  # ARENA_HIP_PLATFORM=auto with stand-in compilers and GPU probes: nvcc is preferred when
  # both compilers exist and no GPU is visible, and the reason says so.
  include("${SOURCE_DIR}/cmake/ArenaPlatformDetect.cmake")
  file(WRITE "${WORK_DIR}/no-gpu-smi" "#!/bin/sh\nexit 0\n")
  file(WRITE "${WORK_DIR}/gpu-smi" "#!/bin/sh\necho 'GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0)'\n")
  file(CHMOD "${WORK_DIR}/no-gpu-smi" "${WORK_DIR}/gpu-smi" PERMISSIONS OWNER_READ OWNER_EXECUTE)
  file(WRITE "${WORK_DIR}/kfd" "")
  set(ARENA_KFD_PATH "${WORK_DIR}/no-such-kfd")
  foreach(c "both|/x/nvcc|/x/hipcc|no-gpu-smi|nvidia|no GPU visible; both nvcc and hipcc found, nvcc is preferred \\(-DARENA_HIP_PLATFORM=amd picks hipcc\\)"
            "nvcc|/x/nvcc||no-gpu-smi|nvidia|no GPU visible; nvcc is the only kernel compiler found"
            "hipcc||/x/hipcc|no-gpu-smi|amd|no GPU visible; hipcc is the only kernel compiler found"
            "nvidia gpu|/x/nvcc|/x/hipcc|gpu-smi|nvidia|nvidia-smi lists an NVIDIA GPU and nvcc is at /x/nvcc"
            "amd gpu|/x/nvcc|/x/hipcc|no-gpu-smi|amd|kfd exists \\(an AMD GPU\\) and hipcc is at /x/hipcc")
    string(REPLACE "|" ";" c "${c}")
    list(GET c 0 name)
    list(GET c 1 ARENA_NVCC)
    list(GET c 2 ARENA_HIPCC)
    list(GET c 3 smi)
    list(GET c 4 want)
    list(GET c 5 why)
    set(ARENA_NVIDIA_SMI "${WORK_DIR}/${smi}")
    set(ARENA_KFD_PATH "${WORK_DIR}/no-such-kfd")
    if(name STREQUAL "amd gpu")
      set(ARENA_KFD_PATH "${WORK_DIR}/kfd")
    endif()
    arena_detect_platform(got reason)
    set(out "${name}: ${got}: ${reason}")
    if(NOT got STREQUAL want OR NOT reason MATCHES "${why}")
      fail("${name}: expected ${want} because '${why}'")
    endif()
    message("ok: ${out}")
  endforeach()

elseif(CASE STREQUAL "compile_gate_reason_first")
  # A failing compile gate starts with its reason, without CMake's call stack.
  foreach(c "missing|${WORK_DIR}/nothing.hip|^FAILED: candidate: no source file at "
            "side_stream|${SOURCE_DIR}/tests/candidates/side_stream/hip2hip/gelu_f16/kernel.hip|^FAILED: candidate: breaks the kernel ABI rules:\n  - calls [^ ]*StreamCreate"
            "syntax_error|${SOURCE_DIR}/tests/candidates/syntax_error/hip2hip/gelu_f16/kernel.hip|^FAILED: candidate: compilation failed \\(exit [0-9]+\\) after [0-9]+ s: the compiler's output follows\n[^\n]*error")
    string(REPLACE "|" ";" c "${c}")
    list(GET c 0 name)
    list(GET c 1 src)
    list(GET c 2 want)
    run("${CMAKE_COMMAND}" "-DSOURCE=${src}" "-DOUTPUT=${WORK_DIR}/${name}.so" "-DTOOLCHAIN=${TOOLCHAIN}"
        -DWHAT=candidate "-DRESULT=${WORK_DIR}/${name}.json" -P "${SOURCE_DIR}/cmake/ArenaCompileKernel.cmake")
    if(rc EQUAL 0)
      fail("${name}: the compile gate passed")
    endif()
    expect_match("${want}")
    expect_no_match("Call Stack")
    file(READ "${WORK_DIR}/${name}.json" j)
    string(JSON compiled GET "${j}" compiled)
    if(compiled)
      fail("${name}: compile.json says compiled")
    endif()
    message("ok: ${name}")
  endforeach()

elseif(CASE STREQUAL "dashboard_names_the_label")
  # A dashboard run whose LABEL matches no test says so, naming the label and the labels there are.
  run("${CMAKE_CTEST_COMMAND}" "-DSOURCE_DIR=${SOURCE_DIR}/tests/cdash/project" "-DBINARY_DIR=${WORK_DIR}/dash"
      -DSUBMIT=OFF "-DLABEL=^nosuch$" -S "${SOURCE_DIR}/cmake/ArenaDashboard.cmake")
  if(rc EQUAL 0)
    fail("the dashboard script passed with a label that matches nothing")
  endif()
  expect_match("FAILED: ctest_test \\(no test matched LABEL '\\^nosuch\\$' EXCLUDE_LABEL ''; the labels are: demo, other\\)")
  message("ok: the label is named")

elseif(CASE STREQUAL "run_sh_summary")
  # tests/run.sh ends with one summary line per platform, not a list of skipped names.
  run(bash "${SOURCE_DIR}/tests/run.sh" --summarize nvidia "${SOURCE_DIR}/tests/data/ctest_log/sample.log")
  if(NOT rc EQUAL 0)
    fail("exit ${rc}")
  endif()
  string(STRIP "${out}" out)
  string(REGEX REPLACE ".*\n" "" last "${out}")
  if(NOT last STREQUAL "nvidia: 2 passed, 1 failed, 4 skipped")
    fail("last line '${last}'")
  endif()
  expect_match("nvidia: skipped: 3 GPU test\\(s\\) \\(no GPU\\), 1 other test\\(s\\)")
  message("ok: ${last}")

else()
  message(FATAL_ERROR "check.cmake: unknown CASE ${CASE}")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
