# The main job: configure, build, run one suite through an agent and its gates, score the
# run and print the score table.
#
#   cmake [-DSUITE=hip2hip] [-DAGENT=baseline|replay|claude_code|codex|cursor|command|none]
#         [-DCANDIDATE=baseline|solution|<folder> (judged without an agent)] [-DRUN=<name>]
#         [-DBUILD_DIR=build] [-DRESULTS_DIR=results] [-DJOBS=<parallel tests>]
#         [-DFAIL_ON=SLOWER,INCORRECT] [-DEXTRA_ARGS="-DARENA_...=..."] [-DDRY_RUN=ON]
#         -P cmake/ArenaEvaluate.cmake
#
# Every setting is checked before anything is built (a wrong suite, agent, candidate folder
# or a run name already taken stops it in seconds, saying why). -DCANDIDATE=<...> alone means
# no agent; with an agent too it is an error. Settings written after -P (where cmake itself
# ignores them) are applied, with a note. DRY_RUN=ON prints the plan and stops.
# Without a GPU, compile gates run for real and GPU gates are skipped (the table says so).
cmake_minimum_required(VERSION 3.25)
get_filename_component(_src "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(_settings SUITE AGENT CANDIDATE RUN BUILD_DIR RESULTS_DIR JOBS FAIL_ON EXTRA_ARGS DRY_RUN)

# The reason first, on one line; then the script stops (CMake before 3.29 adds its own
# "CMake Error at" trailer, which says nothing more).
macro(_fail)
  string(JOIN "" _why ${ARGV})
  message("ArenaEvaluate: ${_why}")
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.29)
    cmake_language(EXIT 1)
  endif()
  message(FATAL_ERROR "ArenaEvaluate stopped before building anything (the reason is the line above)")
endmacro()

# -D settings: before -P cmake applies them; after -P it passes them on as plain arguments,
# which this script applies itself (what the user meant), saying so. Unknown names are typos.
math(EXPR _last "${CMAKE_ARGC} - 1")
set(_after_script FALSE)
foreach(_i RANGE 1 ${_last})
  set(_arg "${CMAKE_ARGV${_i}}")
  if(_arg STREQUAL "-P")
    math(EXPR _next "${_i} + 1")
    set(_script_index ${_next})
    continue()
  endif()
  if(DEFINED _script_index AND _i EQUAL _script_index)
    set(_after_script TRUE)
    continue()
  endif()
  if(_arg MATCHES "^-D([A-Za-z_][A-Za-z0-9_]*)(:[A-Z]+)?=(.*)$")
    set(_name "${CMAKE_MATCH_1}")
    set(_value "${CMAKE_MATCH_3}")
    if(NOT _name IN_LIST _settings)
      list(JOIN _settings ", " _known)
      _fail("-D${_name} is not a setting of this script (settings: ${_known}, while ARENA_* cache variables go in -DEXTRA_ARGS=\"-D${_name}=...\")")
    endif()
    if(_after_script)
      set(${_name} "${_value}")
      message("ArenaEvaluate: note: -D${_name}=${_value} came after -P, where cmake ignores it; applied")
    endif()
  elseif(_after_script)
    _fail("'${_arg}' after the script: settings are -DNAME=value (before -P, or after it)")
  endif()
endforeach()

# --- what the user asked for, checked now ---------------------------------------------------
# A folder option: `default` where it was not given, made absolute (relative to where cmake runs).
macro(_absolute_folder var default)
  if(NOT DEFINED ${var})
    set(${var} "${default}")
  endif()
  get_filename_component(${var} "${${var}}" ABSOLUTE)
endmacro()

if(NOT DEFINED SUITE)
  set(SUITE hip2hip)
endif()
file(GLOB _suite_dirs LIST_DIRECTORIES true RELATIVE "${_src}/tasks" "${_src}/tasks/*")
set(_suites "")
foreach(_s IN LISTS _suite_dirs)
  file(GLOB _specs "${_src}/tasks/${_s}/*/task.json")  # a suite holds tasks (tasks/_oracles holds none)
  if(IS_DIRECTORY "${_src}/tasks/${_s}" AND _specs)
    list(APPEND _suites "${_s}")
  endif()
endforeach()
list(JOIN _suites ", " _suite_list)
if(NOT SUITE IN_LIST _suites)
  _fail("SUITE=${SUITE}: no such suite (there are: ${_suite_list})")
endif()

file(GLOB _adapters RELATIVE "${_src}/agents" "${_src}/agents/*/adapter.cmake")
list(TRANSFORM _adapters REPLACE "/adapter.cmake$" "")
list(JOIN _adapters ", " _adapter_list)
if(DEFINED CANDIDATE AND NOT CANDIDATE MATCHES "^(baseline|solution)$")
  get_filename_component(CANDIDATE "${CANDIDATE}" ABSOLUTE)  # relative to where cmake runs
  if(NOT IS_DIRECTORY "${CANDIDATE}")
    _fail("CANDIDATE=${CANDIDATE}: not baseline, solution or an existing folder")
  endif()
  file(GLOB _have LIST_DIRECTORIES false "${CANDIDATE}/${SUITE}/*/kernel.*")
  if(NOT _have)
    _fail("CANDIDATE=${CANDIDATE} holds no ${SUITE}/<task>/kernel.hip (kernel.py for triton2triton): "
          "nothing of suite ${SUITE} to judge")
  endif()
endif()
if(DEFINED AGENT AND NOT AGENT STREQUAL "none" AND NOT AGENT IN_LIST _adapters)
  _fail("AGENT=${AGENT}: no such agent adapter (there are: ${_adapter_list}, or none)")
endif()
if(DEFINED CANDIDATE AND NOT CANDIDATE STREQUAL "baseline")
  if(NOT DEFINED AGENT)
    set(AGENT none)
    message("ArenaEvaluate: note: CANDIDATE=${CANDIDATE} is judged as it is: no agent (AGENT=none)")
  elseif(NOT AGENT STREQUAL "none")
    _fail("CANDIDATE=${CANDIDATE} and AGENT=${AGENT}: the agent writes the candidates, so the candidate "
          "would not be judged: pass one of them (AGENT=none judges CANDIDATE)")
  endif()
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

_absolute_folder(RESULTS_DIR "${_src}/results")
if(NOT DEFINED RUN)
  string(TIMESTAMP RUN "${SUITE}-%Y%m%d-%H%M%S" UTC)
endif()
if(RUN STREQUAL "" OR RUN MATCHES "[/\\\\]")
  _fail("RUN='${RUN}': a run name is one folder name")
endif()
if(EXISTS "${RESULTS_DIR}/${RUN}")
  _fail("RUN=${RUN}: ${RESULTS_DIR}/${RUN} already exists (scored runs are never overwritten): "
        "pick another -DRUN= or remove that folder")
endif()
_absolute_folder(BUILD_DIR "${_src}/build")
if(NOT DEFINED JOBS)
  cmake_host_system_information(RESULT JOBS QUERY NUMBER_OF_LOGICAL_CORES)
endif()
if(NOT JOBS MATCHES "^[1-9][0-9]*$")
  _fail("JOBS=${JOBS}: a positive whole number")
endif()
set(_fail_on "")
if(DEFINED FAIL_ON AND NOT FAIL_ON STREQUAL "")
  set(_fail_on --fail-on "${FAIL_ON}")
endif()
separate_arguments(_extra UNIX_COMMAND "${EXTRA_ARGS}")

# The framework's own tests are not built: the job runs only the suite's gates.
set(_configure "${CMAKE_COMMAND}" -S "${_src}" -B "${BUILD_DIR}" "-DARENA_SUITES=${SUITE}"
    "-DARENA_CANDIDATE=${CANDIDATE}" "-DARENA_AGENT=${AGENT}" "-DARENA_RUN_NAME=${RUN}"
    -DARENA_BUILD_FRAMEWORK_TESTS=OFF ${_extra})
if(AGENT)
  set(_judged "what agent ${AGENT} leaves")
else()
  set(_judged "${CANDIDATE}")
endif()
message("ArenaEvaluate: suite ${SUITE}, candidates: ${_judged}; build ${BUILD_DIR}; run ${RESULTS_DIR}/${RUN}")
if(DRY_RUN)
  list(JOIN _configure " " _shown)
  message("ArenaEvaluate: dry run; would configure with: ${_shown}")
  return()
endif()

function(_run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message("ArenaEvaluate: ${what} failed (exit ${_rc}): its output is above")
    message(FATAL_ERROR "ArenaEvaluate: ${what} failed")
  endif()
endfunction()

_run("configure" ${_configure})
_run("build" "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --parallel ${JOBS})

# Old results and Test.xml files would be mistaken for this run's.
file(REMOVE_RECURSE "${BUILD_DIR}/arena/results/${SUITE}" "${BUILD_DIR}/Testing")
execute_process(
  COMMAND "${CMAKE_CTEST_COMMAND}" -T Test --no-compress-output -L "^${SUITE}$"
          --resource-spec-file "${BUILD_DIR}/arena_resources.json" --parallel ${JOBS} --output-on-failure
  WORKING_DIRECTORY "${BUILD_DIR}" RESULT_VARIABLE _ctest_rc)
message("")
execute_process(COMMAND "${BUILD_DIR}/harness/score/arena-score" "${BUILD_DIR}" --run "${RUN}"
                        --results-dir "${RESULTS_DIR}" ${_fail_on}
                RESULT_VARIABLE _score_rc)
if(NOT EXISTS "${RESULTS_DIR}/${RUN}/summary.md")
  message(FATAL_ERROR "ArenaEvaluate: scoring failed (exit ${_score_rc})")
endif()
file(READ "${RESULTS_DIR}/${RUN}/summary.md" _summary)
message("${_summary}")
message("Scored run: ${RESULTS_DIR}/${RUN}/ (scores.json, summary.md, index.html, junit.xml)")
if(NOT _score_rc EQUAL 0)
  message(FATAL_ERROR "ArenaEvaluate: the run breaks the FAIL_ON policy (${FAIL_ON}): see arena-score's lines above")
endif()
if(NOT _ctest_rc EQUAL 0)
  message(FATAL_ERROR "Some ${SUITE} tests failed (see the tables above and the test output)")
endif()
