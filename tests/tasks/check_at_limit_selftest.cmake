# cmake -P: a task marked at_limit (task.json; docs/DESIGN.md, "Production baselines") gets a
# selftest/<id>/solution_faster that passes --require-faster 0 (not slower), any other task
# --require-faster 1 (FASTER): configure reads at_limit through arena-spec's manifest. Two toy
# copies of one shipped task, alike but for at_limit, are configured on the first platform
# whose compiler is here (a host-only build generates no gates), and their commands compared.
#   cmake -DSOURCE_DIR=<project> -DWORK_DIR=<scratch> [-DNVCC=<nvcc>] [-DHIPCC=<hipcc>] -P check_at_limit_selftest.cmake
cmake_minimum_required(VERSION 3.25)
function(fail what)
  message(FATAL_ERROR "FAILED: ${what}")
endfunction()
# Not given (a host-only build looks for none): the compilers the platforms would find.
if(NOT NVCC)
  find_program(_found_nvcc nvcc HINTS "$ENV{CUDA_HOME}/bin" /usr/local/cuda/bin)
  set(NVCC "${_found_nvcc}")
endif()
if(NOT HIPCC)
  find_program(_found_hipcc hipcc HINTS "$ENV{ROCM_PATH}/bin" /opt/rocm/bin)
  set(HIPCC "${_found_hipcc}")
endif()
set(platform "")
if(NVCC AND EXISTS "${NVCC}")
  set(platform nvidia)
elseif(HIPCC AND EXISTS "${HIPCC}")
  set(platform amd)
else()
  message("SKIPPED: no kernel compiler here (NVCC='${NVCC}', HIPCC='${HIPCC}'), and a host-only build generates no gates")
  return()
endif()
file(REMOVE_RECURSE "${WORK_DIR}")

set(origin "${SOURCE_DIR}/tasks/hip2hip/avgpool_global_f16")
foreach(name toy_at_limit toy_normal)
  file(COPY "${origin}/" DESTINATION "${WORK_DIR}/tasks/hip2hip/${name}")
  file(READ "${origin}/task.json" spec)
  string(JSON spec SET "${spec}" name "\"${name}\"")
  if(name STREQUAL "toy_at_limit")
    string(JSON spec SET "${spec}" at_limit [=[{"fraction_of_peak": 0.9, "why": "one read at 90 % of bandwidth"}]=])
  endif()
  file(WRITE "${WORK_DIR}/tasks/hip2hip/${name}/task.json" "${spec}")
endforeach()

execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}/build" "-DARENA_HIP_PLATFORM=${platform}"
                        "-DARENA_TASKS_DIR=${WORK_DIR}/tasks" -DARENA_SUITES=hip2hip -DARENA_BUILD_FRAMEWORK_TESTS=OFF
                        -DARENA_SELFTEST=ON -DARENA_INSTALL=OFF
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  fail("configure on ${platform} failed (exit ${rc}):\n${out}${err}")
endif()
# The generated test file (ctest's listing leaves out the command of a tool not built yet).
file(READ "${WORK_DIR}/build/CTestTestfile.cmake" testfile)

# The value after --require-faster in <test>'s command ("" when it has none).
function(require_faster_of test out)
  string(REGEX MATCH "add_test\\(\\[=\\[${test}\\]=\\][^\n]*" line "${testfile}")
  if(NOT line)
    fail("configure added no test ${test}")
  endif()
  set(value "")
  if(line MATCHES "\"--require-faster\" \"([^\"]*)\"")
    set(value "${CMAKE_MATCH_1}")
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

require_faster_of("selftest/hip2hip/toy_at_limit/solution_faster" at_limit)
require_faster_of("selftest/hip2hip/toy_normal/solution_faster" normal)
if(NOT at_limit STREQUAL "0")
  fail("selftest/hip2hip/toy_at_limit/solution_faster passes --require-faster '${at_limit}', not 0 (its task is at_limit)")
endif()
if(NOT normal STREQUAL "1")
  fail("selftest/hip2hip/toy_normal/solution_faster passes --require-faster '${normal}', not 1 (its task is not at_limit)")
endif()
message("ok: ${platform}: --require-faster 0 for the at_limit task, 1 for the other")
