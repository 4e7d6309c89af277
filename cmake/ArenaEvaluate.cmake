# The main job: configure, build, run one suite through an agent and its gates, score the
# run and print the score table.
#
#   cmake [-DSUITE=hip2hip] [-DAGENT=baseline|replay|claude_code|codex|cursor|command|none]
#         [-DCANDIDATE=baseline|solution|<folder> (with AGENT=none)] [-DRUN=<name>]
#         [-DBUILD_DIR=build] [-DJOBS=<parallel tests>] [-DEXTRA_ARGS="-DARENA_...=..."]
#         -P cmake/ArenaEvaluate.cmake
#
# Without a GPU, compile gates run for real and GPU gates are skipped (the table says so).
cmake_minimum_required(VERSION 3.22)
get_filename_component(_src "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
if(NOT DEFINED SUITE)
  set(SUITE hip2hip)
endif()
if(NOT DEFINED CANDIDATE)
  set(CANDIDATE baseline)
endif()
if(NOT DEFINED AGENT)
  set(AGENT baseline)  # the default agent: changes nothing (an A/A run through the agent path)
endif()
if(AGENT STREQUAL "none")
  set(AGENT "")
endif()
if(NOT DEFINED RUN)
  string(TIMESTAMP RUN "${SUITE}-%Y%m%d-%H%M%S" UTC)
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
     "-DARENA_CANDIDATE=${CANDIDATE}" "-DARENA_AGENT=${AGENT}" "-DARENA_RUN_NAME=${RUN}" ${_extra})
_run("build" "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --parallel ${JOBS})

# Old results and Test.xml files would be mistaken for this run's.
file(REMOVE_RECURSE "${BUILD_DIR}/arena/results/${SUITE}" "${BUILD_DIR}/Testing")
execute_process(
  COMMAND "${CMAKE_CTEST_COMMAND}" -T Test --no-compress-output -L "^${SUITE}$"
          --resource-spec-file "${BUILD_DIR}/arena_resources.json" --parallel ${JOBS} --output-on-failure
  WORKING_DIRECTORY "${BUILD_DIR}" RESULT_VARIABLE _ctest_rc)
message("")
_run("scoring" "${BUILD_DIR}/harness/score/arena-score" "${BUILD_DIR}" --run "${RUN}" --results-dir "${_src}/results")
file(READ "${_src}/results/${RUN}/summary.md" _summary)
message("${_summary}")
message("Scored run: ${_src}/results/${RUN}/ (scores.json, summary.md, index.html)")
if(NOT _ctest_rc EQUAL 0)
  message(FATAL_ERROR "Some ${SUITE} tests failed (see the tables above and the test output)")
endif()
