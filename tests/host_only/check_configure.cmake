# cmake -P: the host-only configure (ARENA_HIP_PLATFORM=none) needs no GPU compiler. Runs it
# with a PATH of the system folders only and no CUDA or ROCm variables, then checks it says
# so, looked for no kernel compiler, generated no gates, and has the unit tests to build.
#
#   cmake -DSOURCE_DIR=<repo> -DWORK_DIR=<scratch> -DCXX=<C++ compiler> -P check_configure.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E env --unset=CUDA_HOME --unset=CUDA_PATH --unset=ROCM_PATH PATH=/usr/bin:/bin
                        "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}" -DARENA_HIP_PLATFORM=none
                        "-DCMAKE_CXX_COMPILER=${CXX}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "FAILED: the host-only configure failed:\n${out}")
endif()
if(NOT out MATCHES "KernelArena platform: none \\(host only")
  message(FATAL_ERROR "FAILED: the configure did not say it is host only:\n${out}")
endif()
file(STRINGS "${WORK_DIR}/CMakeCache.txt" compilers REGEX "^ARENA_(NVCC|HIPCC):")
if(compilers)
  message(FATAL_ERROR "FAILED: the host-only configure looked for a kernel compiler: ${compilers}")
endif()
execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" -N WORKING_DIRECTORY "${WORK_DIR}" OUTPUT_VARIABLE tests)
if(tests MATCHES "/(compile|correct_seen|perf)\n")
  message(FATAL_ERROR "FAILED: the host-only configure generated gates:\n${tests}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK_DIR}" --target help OUTPUT_VARIABLE targets)
if(NOT targets MATCHES "arena_unit_tests" OR NOT targets MATCHES "arena-score" OR targets MATCHES "arena-correct")
  message(FATAL_ERROR "FAILED: expected the unit tests and the scorer, and no runners, among:\n${targets}")
endif()
# Correctness gates per GPU, by default from the host's cores: half of them per GPU, at least 2.
cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
set(gpus 0)
find_program(smi nvidia-smi)
if(smi)
  execute_process(COMMAND "${smi}" -L OUTPUT_VARIABLE l RESULT_VARIABLE smi_rc ERROR_QUIET)
  if(smi_rc EQUAL 0)
    string(REGEX MATCHALL "GPU [0-9]+:" l "${l}")
    list(LENGTH l gpus)
  endif()
endif()
if(gpus LESS 1)
  set(gpus 1)
endif()
math(EXPR expected "${cores} / (2 * ${gpus})")
if(expected LESS 2)
  set(expected 2)
endif()
file(STRINGS "${WORK_DIR}/CMakeCache.txt" slots REGEX "^ARENA_PERF_SLOTS:")
if(NOT slots STREQUAL "ARENA_PERF_SLOTS:STRING=${expected}")
  message(FATAL_ERROR "FAILED: ARENA_PERF_SLOTS by default should be ${expected} (${cores} cores, ${gpus} GPU(s)), "
                      "the cache has '${slots}'")
endif()
message("ok: host-only configure without a GPU compiler; unit tests and scorer to build, no runners, no gates; "
        "${expected} correctness gates per GPU")
