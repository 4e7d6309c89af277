# The main job: configure, build, run one suite's gates and print the result table.
#
#   cmake [-DSUITE=hip2hip] [-DCANDIDATE=baseline|solution|<folder>] [-DBUILD_DIR=build]
#         [-DJOBS=<parallel tests>] [-DEXTRA_ARGS="-DARENA_...=..."] -P cmake/ArenaEvaluate.cmake
#
# Without a GPU, compile gates run for real and GPU gates are skipped (the table says why).
cmake_minimum_required(VERSION 3.22)
get_filename_component(_src "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
if(NOT DEFINED SUITE)
  set(SUITE hip2hip)
endif()
if(NOT DEFINED CANDIDATE)
  set(CANDIDATE baseline)
endif()
if(NOT DEFINED BUILD_DIR)
  set(BUILD_DIR "${_src}/build")
endif()
if(NOT DEFINED JOBS)
  cmake_host_system_information(RESULT JOBS QUERY NUMBER_OF_LOGICAL_CORES)
endif()
separate_arguments(_extra UNIX_COMMAND "${EXTRA_ARGS}")

function(_run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (exit ${_rc})")
  endif()
endfunction()

_run("configure" "${CMAKE_COMMAND}" -S "${_src}" -B "${BUILD_DIR}" "-DARENA_SUITES=${SUITE}"
     "-DARENA_CANDIDATE=${CANDIDATE}" ${_extra})
_run("build" "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --parallel ${JOBS})

# Old results would be mistaken for this run's.
file(REMOVE_RECURSE "${BUILD_DIR}/arena/results/${SUITE}")
execute_process(
  COMMAND "${CMAKE_CTEST_COMMAND}" -L "^${SUITE}$" --resource-spec-file "${BUILD_DIR}/arena_resources.json"
          --parallel ${JOBS} --output-on-failure
  WORKING_DIRECTORY "${BUILD_DIR}" RESULT_VARIABLE _ctest_rc)
message("")
_run("summary" "${BUILD_DIR}/harness/arena-summary" "${BUILD_DIR}/arena/results" --suite "${SUITE}")
if(NOT _ctest_rc EQUAL 0)
  message(FATAL_ERROR "Some ${SUITE} gates failed (see the table above and the test output)")
endif()
