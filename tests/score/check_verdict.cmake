# The main job's closing verdict (cmake/ArenaVerdict.cmake) on scored fixtures: a run without a
# GPU says nothing was judged on the GPU and why; a run with failures counts them.
#   cmake -DSCORE=<arena-score> -DFIXTURES=<fixtures> -DWORK_DIR=<scratch> -P check_verdict.cmake
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/ArenaVerdict.cmake")
file(REMOVE_RECURSE "${WORK_DIR}")
function(verdict_of fixture out)
  execute_process(COMMAND "${SCORE}" "${FIXTURES}/${fixture}" --run v --results-dir "${WORK_DIR}/${fixture}"
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  # The verdict goes to stderr through message(); run it in a child cmake to read it back.
  file(WRITE "${WORK_DIR}/print.cmake"
       "include(\"${CMAKE_CURRENT_LIST_DIR}/../../cmake/ArenaVerdict.cmake\")\n"
       "arena_print_verdict(\"${WORK_DIR}/${fixture}/v\" hip2hip \"the fixture's\")\n")
  execute_process(COMMAND "${CMAKE_COMMAND}" -P "${WORK_DIR}/print.cmake" ERROR_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "FAILED: the verdict of ${fixture} could not be printed:\n${text}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
function(expect text regex)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "FAILED: the verdict does not match '${regex}':\n${text}")
  endif()
endfunction()
verdict_of(no_gpu text)
expect("${text}" "Judged: hip2hip, 6 task\\(s\\)")
expect("${text}" "Compiled 6 of 6\\.")
expect("${text}" "Not judged: 6 task\\(s\\), 18 GPU gate\\(s\\) skipped: ")
expect("${text}" "Report: [^\n]*/v/summary.md")
verdict_of(failures text)
expect("${text}" "Compiled 8 of 9, correct 1 of 7 judged, FASTER 0")
expect("${text}" "Problems: 5 failed gates, 1 timeouts, 1 crashes")
list(LENGTH text n)
string(REGEX MATCHALL "\n" lines "${text}")
list(LENGTH lines n)
if(n GREATER 8)
  message(FATAL_ERROR "FAILED: the verdict is ${n} lines long; it should fit a few lines:\n${text}")
endif()
message(STATUS "verdicts: no GPU and failures read as expected")
