# cmake -P: a fourth suite is one folder (tests/suites/README.md). Generates a one-task
# hip2triton suite from hip2hip/gelu_f16 (the same kernel ABI), configures this source tree
# with it, checks the gates it got, and runs its compile gate on a Triton module that keeps
# the rules (it passes) and one that reads files (it fails, saying why).
#
#   cmake -DSOURCE_DIR=<repo> -DWORK_DIR=<scratch> -DPLATFORM=nvidia|amd -P check_suite.cmake
cmake_minimum_required(VERSION 3.25)
foreach(_v SOURCE_DIR WORK_DIR PLATFORM)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "check_suite.cmake: -D${_v}= is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
set(from "${SOURCE_DIR}/tasks/hip2hip/gelu_f16")
set(task "${WORK_DIR}/tasks/hip2triton/gelu_f16")
set(build "${WORK_DIR}/build")

function(fail what)
  message(FATAL_ERROR "FAILED: ${what}")
endfunction()

# The task: hip2hip's spec in the new suite, its baseline, oracle and statement, and a first
# Triton port (triton2triton's baseline) for agents to start from.
file(READ "${from}/task.json" spec)
string(JSON spec SET "${spec}" suite "\"hip2triton\"")
string(JSON spec SET "${spec}" candidate "\"kernel.py\"")
# The oracle: the task's own reference.cpp, or the shared one task.json names (tasks/_oracles).
string(JSON oracle ERROR_VARIABLE no_shared GET "${spec}" reference)
if(no_shared)
  set(oracle reference.cpp)
else()
  string(JSON spec REMOVE "${spec}" reference)
endif()
file(WRITE "${task}/task.json" "${spec}")
file(COPY "${from}/baseline.hip" "${from}/README.md" DESTINATION "${task}")
file(COPY_FILE "${from}/${oracle}" "${task}/reference.cpp")
file(COPY_FILE "${SOURCE_DIR}/tasks/triton2triton/gelu_f16/baseline.py" "${task}/start.py")
# Candidate folders: a module that keeps the rules, and one that reads a file.
file(MAKE_DIRECTORY "${WORK_DIR}/good/hip2triton/gelu_f16" "${WORK_DIR}/bad/hip2triton/gelu_f16")
file(COPY_FILE "${SOURCE_DIR}/tasks/triton2triton/gelu_f16/solution.py" "${WORK_DIR}/good/hip2triton/gelu_f16/kernel.py")
file(COPY_FILE "${SOURCE_DIR}/tests/candidates/reads_files/triton2triton/gelu_f16/kernel.py"
     "${WORK_DIR}/bad/hip2triton/gelu_f16/kernel.py")

macro(configure candidates)
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${build}" "-DARENA_HIP_PLATFORM=${PLATFORM}"
                          "-DARENA_TASKS_DIR=${WORK_DIR}/tasks" "-DARENA_SUITE_PATH=${SOURCE_DIR}/tests/suites"
                          "-DARENA_CANDIDATE=${WORK_DIR}/${candidates}" -DARENA_BUILD_FRAMEWORK_TESTS=OFF
                          -DARENA_SELFTEST=OFF -DARENA_INSTALL=OFF
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    fail("configure with the hip2triton suite failed:\n${out}")
  endif()
endmacro()

macro(run_compile_gate)
  execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" -R "^hip2triton/gelu_f16/compile$" --output-on-failure
                  WORKING_DIRECTORY "${build}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
endmacro()

configure(good)
# The gates and their label (the runners are not built here: CTest's listing names the tests,
# the generated CTestTestfile.cmake their commands).
execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" --show-only=json-v1 WORKING_DIRECTORY "${build}" OUTPUT_VARIABLE j)
string(JSON n LENGTH "${j}" tests)
math(EXPR last "${n} - 1")
set(found "")
foreach(i RANGE ${last})
  string(JSON name GET "${j}" tests ${i} name)
  string(JSON props GET "${j}" tests ${i} properties)
  if(NOT props MATCHES "\"hip2triton\"")
    fail("${name} lacks the label hip2triton: ${props}")
  endif()
  list(APPEND found "${name}")
endforeach()
foreach(gate compile correct_seen correct_unseen perf)
  if(NOT "hip2triton/gelu_f16/${gate}" IN_LIST found)
    fail("no hip2triton/gelu_f16/${gate} among: ${found}")
  endif()
endforeach()
file(STRINGS "${build}/CTestTestfile.cmake" perf REGEX "add_test\\(\\[=*\\[hip2triton/gelu_f16/perf\\]")
if(NOT perf MATCHES "py:triton:kernel:[^\"]*/candidate\\.py" OR NOT perf MATCHES "/hip2triton/gelu_f16/baseline\\.so")
  fail("the perf gate does not time the Triton candidate against the HIP baseline: ${perf}")
endif()
message("ok: the hip2triton suite's four gates")

run_compile_gate()
if(NOT rc EQUAL 0 OR NOT EXISTS "${build}/arena/kernels/hip2triton/gelu_f16/candidate.py")
  fail("the compile gate refused a module that keeps the rules (exit ${rc}):\n${out}")
endif()
message("ok: the compile gate took a module that keeps the rules")

configure(bad)
run_compile_gate()
if(rc EQUAL 0 OR NOT out MATCHES "uses open \\(file access is not allowed\\)")
  fail("the compile gate did not refuse a module that reads files (exit ${rc}):\n${out}")
endif()
message("ok: the compile gate refused a module that reads files")
