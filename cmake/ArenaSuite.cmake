# Suite descriptors: suites/<suite>/suite.cmake says what a suite's kernels are and how its
# gates and agent workspaces treat them (suites/README.md lists every setting). Read at
# configure by cmake/ArenaTasks.cmake and in script mode by cmake/ArenaAgent.cmake, so the
# gates and an agent's self-check run the same commands.
#
#   arena_find_suite(<suite> <out>)        the descriptor's path: <dir>/<suite>/suite.cmake for
#                                          each <dir> of ARENA_SUITE_PATH, then KernelArena's suites/
#   arena_read_suite(<descriptor>)         sets ARENA_SUITE_* (and ARENA_SUITES_DIR) in the caller, from the inputs
#                                          ARENA_TASK_DIR, ARENA_TASK_BASELINE, ARENA_TASK_KERNELS,
#                                          ARENA_TASK_TORCH_COMPILE, ARENA_TASK_PACKAGE_MODULES,
#                                          ARENA_CMAKE, ARENA_PYTHON,
#                                          ARENA_PY_HOST, ARENA_TOOLCHAIN, ARENA_COMPILE_SCRIPT
#   arena_suite_runs_on(<platform> <out>)  TRUE if ARENA_SUITE_PLATFORMS names <platform> (nvidia, amd)
#   arena_suite_command(<out> <template> [SOURCE s] [OUTPUT o] [WHAT w] [RESULT r] [CONFINE ON])
#                                          a command from ARENA_SUITE_COMPILE: each <NAME> replaced;
#                                          a word whose value is empty is left out, and so is the
#                                          option before a lone <NAME> (`--result <RESULT>`)
include_guard(GLOBAL)

set(_ARENA_SUITE_SETTINGS KERNEL_KIND PLATFORMS RUNNER PROFILE_RUNNER TASK_FILES CANDIDATE_FILE COMPILE COMPILED_SUFFIX KERNEL_PREFIX
    START BUILD_BASELINE BASELINE_COMPILE BASELINE BASELINE_SIDE BUILD_REFERENCE REFERENCE PERF_ARGS PERF_EXTRA_S
    ORACLE_CHECK ORACLE_CHECK_KERNEL WORKSPACE_FILES VERSUS PROMPT)

# KernelArena's own suites/: the source tree's, or the installed package's share/KernelArena/suites.
function(_arena_own_suites_dir out)
  get_property(_data GLOBAL PROPERTY ARENA_DATA_DIR)
  if(ARENA_SUITES_DIR)
    set(${out} "${ARENA_SUITES_DIR}" PARENT_SCOPE)
  elseif(_data AND EXISTS "${_data}/suites")
    set(${out} "${_data}/suites" PARENT_SCOPE)
  else()
    get_filename_component(_own "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../suites" ABSOLUTE)
    set(${out} "${_own}" PARENT_SCOPE)
  endif()
endfunction()

function(arena_find_suite suite out)
  _arena_own_suites_dir(_own)
  set(_looked "")
  foreach(_dir IN LISTS ARENA_SUITE_PATH _own)
    get_filename_component(_dir "${_dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(EXISTS "${_dir}/${suite}/suite.cmake")
      set(${out} "${_dir}/${suite}/suite.cmake" PARENT_SCOPE)
      return()
    endif()
    list(APPEND _looked "${_dir}")
  endforeach()
  list(JOIN _looked ", " _looked)
  message(FATAL_ERROR "No suite descriptor for suite '${suite}' (looked for ${suite}/suite.cmake in ${_looked}): "
                      "add one (suites/README.md; it may include another suite's) in a folder listed in ARENA_SUITE_PATH")
endfunction()

macro(arena_read_suite descriptor)
  foreach(_arena_s IN LISTS _ARENA_SUITE_SETTINGS)
    set(ARENA_SUITE_${_arena_s} "")
  endforeach()
  # The defaults: both platforms, the baseline judged by its own name, no extra perf references.
  set(ARENA_SUITE_PLATFORMS nvidia amd)
  set(ARENA_SUITE_BASELINE_SIDE baseline)
  set(ARENA_SUITE_ORACLE_CHECK baseline_correct)
  set(ARENA_SUITE_PERF_EXTRA_S 0)
  set(ARENA_SUITE_VERSUS "the baseline")
  _arena_own_suites_dir(ARENA_SUITES_DIR)  # so a descriptor can include one of KernelArena's
  include("${descriptor}")
  if(NOT ARENA_SUITE_PROFILE_RUNNER)
    set(ARENA_SUITE_PROFILE_RUNNER "${ARENA_SUITE_RUNNER}")
  endif()
  if(NOT ARENA_SUITE_BASELINE_COMPILE)
    set(ARENA_SUITE_BASELINE_COMPILE "${ARENA_SUITE_COMPILE}")
  endif()
  if(NOT ARENA_SUITE_ORACLE_CHECK_KERNEL)
    set(ARENA_SUITE_ORACLE_CHECK_KERNEL "${ARENA_SUITE_BASELINE}")
  endif()
  _arena_check_suite("${descriptor}")
endmacro()

# Each required setting present and well-formed, or configure stops naming the descriptor.
function(_arena_check_suite descriptor)
  foreach(_s KERNEL_KIND PLATFORMS RUNNER CANDIDATE_FILE COMPILE COMPILED_SUFFIX START BASELINE REFERENCE TASK_FILES PROMPT)
    if("${ARENA_SUITE_${_s}}" STREQUAL "")
      message(FATAL_ERROR "${descriptor}: ARENA_SUITE_${_s} is not set (suites/README.md lists the settings)")
    endif()
  endforeach()
  # The kind is a name the task checks switch on (suites/README.md), never a suite's name.
  if(NOT ARENA_SUITE_KERNEL_KIND MATCHES "^[a-z][a-z0-9_]*$")
    message(FATAL_ERROR "${descriptor}: ARENA_SUITE_KERNEL_KIND is '${ARENA_SUITE_KERNEL_KIND}': must be one "
                        "lower-case word (hip, triton, cuda, ...)")
  endif()
  foreach(_p IN LISTS ARENA_SUITE_PLATFORMS)
    if(NOT _p MATCHES "^(nvidia|amd)$")
      message(FATAL_ERROR "${descriptor}: ARENA_SUITE_PLATFORMS names '${_p}': each entry must be nvidia or amd")
    endif()
  endforeach()
  foreach(_s RUNNER PROFILE_RUNNER)
    if(NOT ARENA_SUITE_${_s} MATCHES "^(native|python)$")
      message(FATAL_ERROR "${descriptor}: ARENA_SUITE_${_s} is '${ARENA_SUITE_${_s}}': must be native or python")
    endif()
  endforeach()
  if(ARENA_SUITE_START MATCHES "/")
    message(FATAL_ERROR "${descriptor}: ARENA_SUITE_START is '${ARENA_SUITE_START}': must be baseline, skeleton "
                        "or the name of a file in the task's folder")
  endif()
  if(NOT ARENA_SUITE_COMPILE MATCHES "<SOURCE>" OR NOT ARENA_SUITE_COMPILE MATCHES "<OUTPUT>")
    message(FATAL_ERROR "${descriptor}: ARENA_SUITE_COMPILE must name <SOURCE> and <OUTPUT>")
  endif()
  foreach(_entry IN LISTS ARENA_SUITE_TASK_FILES)
    if(NOT _entry MATCHES "^(BASELINE|REFERENCE|SOLUTION)=[^/]+$")
      message(FATAL_ERROR "${descriptor}: ARENA_SUITE_TASK_FILES entry '${_entry}': must be BASELINE=, REFERENCE= "
                          "or SOLUTION=<file name>")
    endif()
  endforeach()
  if(NOT ARENA_SUITE_TASK_FILES MATCHES "(^|;)REFERENCE=")
    message(FATAL_ERROR "${descriptor}: ARENA_SUITE_TASK_FILES names no REFERENCE (every task has an oracle)")
  endif()
  if(ARENA_SUITE_START STREQUAL "baseline" AND NOT ARENA_SUITE_TASK_FILES MATCHES "(^|;)BASELINE=")
    message(FATAL_ERROR "${descriptor}: ARENA_SUITE_START is baseline but ARENA_SUITE_TASK_FILES names no BASELINE")
  endif()
endfunction()

# The task-folder file a descriptor names for BASELINE, REFERENCE or SOLUTION ("" if none).
function(arena_suite_task_file what out)
  set(${out} "" PARENT_SCOPE)
  foreach(_entry IN LISTS ARENA_SUITE_TASK_FILES)
    if(_entry MATCHES "^${what}=(.*)$")
      set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

function(arena_suite_runs_on platform out)
  if(platform IN_LIST ARENA_SUITE_PLATFORMS)
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

function(arena_suite_command out template)
  cmake_parse_arguments(PARSE_ARGV 2 C "" "SOURCE;OUTPUT;WHAT;RESULT;CONFINE" "")
  set(_cmd "")
  foreach(_word IN LISTS template)
    set(_template_word "${_word}")
    set(_keep TRUE)
    foreach(_p SOURCE OUTPUT WHAT RESULT CONFINE)
      if(_word MATCHES "<${_p}>")
        if("${C_${_p}}" STREQUAL "")
          set(_keep FALSE)
        endif()
        string(REPLACE "<${_p}>" "${C_${_p}}" _word "${_word}")
      endif()
    endforeach()
    if(_keep)
      list(APPEND _cmd "${_word}")
    elseif(_template_word MATCHES "^<[A-Z]+>$" AND _cmd)
      list(GET _cmd -1 _option)
      if(_option MATCHES "^--[^<]*$")
        list(POP_BACK _cmd)
      endif()
    endif()
  endforeach()
  set(${out} "${_cmd}" PARENT_SCOPE)
endfunction()
