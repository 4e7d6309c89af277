# KernelArena dashboard script: configure, build, test and submit the results to CDash.
#
#   ctest [-DVAR=value ...] -S cmake/ArenaDashboard.cmake [-V]
#
# Put the -D definitions before -S. Every variable is optional:
#
#   MODEL              Experimental (default), Nightly or Continuous (the CDash group)
#   SITE               site name; default: this machine's host name
#   BUILD_NAME         build name; default: <OS>-<platform>-<candidate>, e.g. Linux-nvidia-solution
#   SOURCE_DIR         project to build; default: this repository
#   BINARY_DIR         build tree; default: <SOURCE_DIR>/build/dashboard
#   CLEAN              ON: empty BINARY_DIR first (only a tree holding a CMakeCache.txt)
#   CONFIGURE_OPTIONS  ;-list of cmake arguments, e.g. "-DARENA_CANDIDATE=solution;-DARENA_HIP_PLATFORM=nvidia"
#   GENERATOR          CMake generator; default: $ENV{CMAKE_GENERATOR} or "Unix Makefiles"
#   BUILD_TYPE         CMAKE_BUILD_TYPE unless CONFIGURE_OPTIONS sets it; default: Release
#   BUILD_JOBS         parallel build jobs; default: number of logical cores
#   LABEL              ctest label regex to include, e.g. ^hip2hip$ (anchor it); default: all tests
#   EXCLUDE_LABEL      ctest label regex to exclude
#   PARALLEL_LEVEL     tests run at once; default: number of logical cores (GPU gates are
#                      still shared out by the resource spec file, perf gates run alone)
#   RESOURCE_SPEC_FILE default: <BINARY_DIR>/arena_resources.json when configure wrote it
#   JUNIT_FILE         JUnit XML written by ctest_test; default: <BINARY_DIR>/Testing/arena-junit.xml
#   SUBMIT             OFF: run everything but do not submit (default ON)
#   SUBMIT_URL         CDash submit URL; default: $ENV{ARENA_CDASH_SUBMIT_URL}, else CTestConfig.cmake's
#   TLS_VERIFY         OFF: accept a self-signed CDash certificate (default: $ENV{ARENA_CDASH_TLS_VERIFY}, else ON)
#   SUBMIT_RETRY_COUNT, SUBMIT_RETRY_DELAY   default 3 retries, 5 s apart
#
# A bearer token for CDash projects that require authenticated submissions is read from the
# CDASH_TOKEN environment variable (never from the command line, so it stays out of logs).
# Relative paths are taken relative to the current directory.
#
# The script always submits what it has (a configure or build failure skips the later steps,
# not the submission) and only then fails: it exits non-zero, naming every failed step, when
# configure, build or tests fail (or no test matched LABEL) or the submission failed.
cmake_minimum_required(VERSION 3.25)

# The first group of `regex` on the first line of `file` that matches it ("" if none or no file).
function(_arena_dashboard_read file regex out)
  set(_value "")
  if(EXISTS "${file}")
    file(STRINGS "${file}" _line REGEX "${regex}" LIMIT_COUNT 1)
    if(_line MATCHES "${regex}")
      set(_value "${CMAKE_MATCH_1}")
    endif()
  endif()
  set(${out} "${_value}" PARENT_SCOPE)
endfunction()

function(_arena_dashboard_default var value)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    set(${var} "${value}" PARENT_SCOPE)
  endif()
endfunction()

function(_arena_dashboard_abspath var)
  if(NOT "${${var}}" STREQUAL "")
    get_filename_component(_abs "${${var}}" ABSOLUTE)  # relative to the current directory
    set(${var} "${_abs}" PARENT_SCOPE)
  endif()
endfunction()

# --- arguments ----------------------------------------------------------------------------
_arena_dashboard_default(MODEL Experimental)
if(NOT MODEL MATCHES "^(Experimental|Nightly|Continuous)$")
  message(FATAL_ERROR "ArenaDashboard: MODEL must be Experimental, Nightly or Continuous, not '${MODEL}'")
endif()

get_filename_component(_arena_repo "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
_arena_dashboard_default(SOURCE_DIR "${_arena_repo}")
_arena_dashboard_abspath(SOURCE_DIR)
_arena_dashboard_default(BINARY_DIR "${SOURCE_DIR}/build/dashboard")
_arena_dashboard_abspath(BINARY_DIR)
if(NOT EXISTS "${SOURCE_DIR}/CMakeLists.txt")
  message(FATAL_ERROR "ArenaDashboard: SOURCE_DIR '${SOURCE_DIR}' holds no CMakeLists.txt")
endif()

cmake_host_system_information(RESULT _arena_cores QUERY NUMBER_OF_LOGICAL_CORES)
if(NOT _arena_cores GREATER 0)
  set(_arena_cores 1)
endif()
_arena_dashboard_default(BUILD_JOBS "${_arena_cores}")
_arena_dashboard_default(PARALLEL_LEVEL "${_arena_cores}")
_arena_dashboard_default(BUILD_TYPE Release)
if(NOT "$ENV{CMAKE_GENERATOR}" STREQUAL "")
  _arena_dashboard_default(GENERATOR "$ENV{CMAKE_GENERATOR}")
else()
  _arena_dashboard_default(GENERATOR "Unix Makefiles")
endif()
_arena_dashboard_default(CLEAN OFF)
_arena_dashboard_default(SUBMIT ON)
_arena_dashboard_default(SUBMIT_RETRY_COUNT 3)
_arena_dashboard_default(SUBMIT_RETRY_DELAY 5)
if(NOT "$ENV{ARENA_CDASH_TLS_VERIFY}" STREQUAL "")
  _arena_dashboard_default(TLS_VERIFY "$ENV{ARENA_CDASH_TLS_VERIFY}")
else()
  _arena_dashboard_default(TLS_VERIFY ON)
endif()
_arena_dashboard_default(JUNIT_FILE "${BINARY_DIR}/Testing/arena-junit.xml")
_arena_dashboard_abspath(JUNIT_FILE)  # ctest_test would resolve it against BINARY_DIR
_arena_dashboard_abspath(RESOURCE_SPEC_FILE)

# SITE and BUILD_NAME.
if(NOT DEFINED SITE OR "${SITE}" STREQUAL "")
  cmake_host_system_information(RESULT SITE QUERY HOSTNAME)
endif()
if(NOT DEFINED BUILD_NAME OR "${BUILD_NAME}" STREQUAL "")
  # <OS>-<platform>-<candidate>: the values configure will use, from CONFIGURE_OPTIONS, else
  # from an existing build tree (the platform configure resolved, the cached candidate), else
  # the project's defaults ("auto" when a fresh tree will detect the platform itself).
  _arena_dashboard_read("${BINARY_DIR}/arena_toolchain.cmake" "^set\\(ARENA_PLATFORM \"([a-z]+)\"\\)$" _platform)
  _arena_dashboard_read("${BINARY_DIR}/CMakeCache.txt" "^ARENA_CANDIDATE:[^=]*=(.+)$" _candidate)
  foreach(_opt IN LISTS CONFIGURE_OPTIONS)
    if(_opt MATCHES "^-DARENA_HIP_PLATFORM(:[A-Z]+)?=(.+)$" AND NOT CMAKE_MATCH_2 STREQUAL "auto")
      set(_platform "${CMAKE_MATCH_2}")
    elseif(_opt MATCHES "^-DARENA_CANDIDATE(:[A-Z]+)?=(.+)$")
      set(_candidate "${CMAKE_MATCH_2}")
    endif()
  endforeach()
  if(_platform STREQUAL "")
    set(_platform "auto")
  endif()
  if(_candidate STREQUAL "")
    set(_candidate "baseline")
  endif()
  get_filename_component(_candidate "${_candidate}" NAME)  # a folder: its name
  cmake_host_system_information(RESULT _os QUERY OS_NAME)
  set(BUILD_NAME "${_os}-${_platform}-${_candidate}")
endif()

# Submit URL: SUBMIT_URL, else the environment; otherwise CTestConfig.cmake (read by
# ctest_start) supplies its default.
if(NOT DEFINED SUBMIT_URL OR "${SUBMIT_URL}" STREQUAL "")
  set(SUBMIT_URL "$ENV{ARENA_CDASH_SUBMIT_URL}")
endif()
if(NOT "${SUBMIT_URL}" STREQUAL "")
  set(CTEST_SUBMIT_URL "${SUBMIT_URL}")
endif()

# TLS: CTest 3.31+ verifies by default (CTEST_TLS_VERIFY, 3.30+); older releases only
# through CURL options.
if(TLS_VERIFY)
  set(CTEST_TLS_VERIFY ON)
else()
  set(CTEST_TLS_VERIFY OFF)
  if(CMAKE_VERSION VERSION_LESS 3.30)
    set(CTEST_CURL_OPTIONS "CURLOPT_SSL_VERIFYPEER_OFF;CURLOPT_SSL_VERIFYHOST_OFF")
  endif()
endif()

set(CTEST_SOURCE_DIRECTORY "${SOURCE_DIR}")
set(CTEST_BINARY_DIRECTORY "${BINARY_DIR}")
set(CTEST_SITE "${SITE}")
set(CTEST_BUILD_NAME "${BUILD_NAME}")
set(CTEST_CMAKE_GENERATOR "${GENERATOR}")
set(CTEST_CONFIGURATION_TYPE "${BUILD_TYPE}")
set(CTEST_BUILD_CONFIGURATION "${BUILD_TYPE}")
# Keep whole logs of passed tests (perf gates print more than the default 1 KiB).
if(NOT DEFINED CTEST_CUSTOM_MAXIMUM_PASSED_TEST_OUTPUT_SIZE)
  set(CTEST_CUSTOM_MAXIMUM_PASSED_TEST_OUTPUT_SIZE 65536)
endif()
if(NOT DEFINED CTEST_CUSTOM_MAXIMUM_FAILED_TEST_OUTPUT_SIZE)
  set(CTEST_CUSTOM_MAXIMUM_FAILED_TEST_OUTPUT_SIZE 1048576)
endif()

# message() without a mode goes to stderr and is shown even without -V.
macro(_arena_dashboard_say text)
  message("ArenaDashboard: ${text}")
endmacro()

# Failed steps are collected (one line each) and reported after the submission.
macro(_arena_dashboard_fail text)
  message("ArenaDashboard: FAILED: ${text}")
  string(APPEND _arena_failed "\n  ${text}")
endmacro()

_arena_dashboard_say("${MODEL} dashboard, site '${CTEST_SITE}', build '${CTEST_BUILD_NAME}'")
_arena_dashboard_say("source ${CTEST_SOURCE_DIRECTORY}, build tree ${CTEST_BINARY_DIRECTORY}")

if(CLEAN)
  if(EXISTS "${CTEST_BINARY_DIRECTORY}/CMakeCache.txt")
    ctest_empty_binary_directory("${CTEST_BINARY_DIRECTORY}")
  elseif(EXISTS "${CTEST_BINARY_DIRECTORY}")
    _arena_dashboard_say("CLEAN: ${CTEST_BINARY_DIRECTORY} holds no CMakeCache.txt, left as it is")
  endif()
endif()
file(MAKE_DIRECTORY "${CTEST_BINARY_DIRECTORY}")

# --- the steps ------------------------------------------------------------------------------
set(_arena_failed "")

ctest_start(${MODEL})
# The tag (e.g. 20250101-0100) names Testing/<tag>/*.xml and Testing/Temporary/Last*_<tag>.log.
file(STRINGS "${CTEST_BINARY_DIRECTORY}/Testing/TAG" _tag LIMIT_COUNT 1)
if("${CTEST_SUBMIT_URL}" STREQUAL "" AND SUBMIT)
  message(FATAL_ERROR "ArenaDashboard: no submit URL (set SUBMIT_URL, ARENA_CDASH_SUBMIT_URL or CTestConfig.cmake's CTEST_SUBMIT_URL)")
endif()

set(_arena_configure_ok FALSE)
set(_configure_options "${CONFIGURE_OPTIONS}")
if(NOT _configure_options MATCHES "-DCMAKE_BUILD_TYPE[:=]")
  list(PREPEND _configure_options "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}")
endif()
ctest_configure(OPTIONS "${_configure_options}" RETURN_VALUE _rv CAPTURE_CMAKE_ERROR _err)
if(NOT _rv EQUAL 0 OR _err EQUAL -1)
  _arena_dashboard_fail("ctest_configure (return value ${_rv}, see ${CTEST_BINARY_DIRECTORY}/Testing/Temporary/LastConfigure_${_tag}.log)")
else()
  set(_arena_configure_ok TRUE)
  _arena_dashboard_say("ctest_configure: ok")
endif()

set(_arena_build_ok FALSE)
if(_arena_configure_ok)
  ctest_build(PARALLEL_LEVEL ${BUILD_JOBS} RETURN_VALUE _rv NUMBER_ERRORS _nerr NUMBER_WARNINGS _nwarn
              CAPTURE_CMAKE_ERROR _err)
  if(NOT _rv EQUAL 0 OR _nerr GREATER 0 OR _err EQUAL -1)
    _arena_dashboard_fail("ctest_build (return value ${_rv}, ${_nerr} error(s), see ${CTEST_BINARY_DIRECTORY}/Testing/Temporary/LastBuild_${_tag}.log)")
  else()
    set(_arena_build_ok TRUE)
    _arena_dashboard_say("ctest_build: ok (${_nwarn} warning(s))")
  endif()
else()
  _arena_dashboard_say("ctest_build and ctest_test skipped: configure failed")
endif()

set(_arena_run_tests ${_arena_build_ok})
if(_arena_build_ok)
  if("${RESOURCE_SPEC_FILE}" STREQUAL "" AND EXISTS "${CTEST_BINARY_DIRECTORY}/arena_resources.json")
    set(RESOURCE_SPEC_FILE "${CTEST_BINARY_DIRECTORY}/arena_resources.json")
  endif()
  if(NOT "${RESOURCE_SPEC_FILE}" STREQUAL "" AND NOT EXISTS "${RESOURCE_SPEC_FILE}")
    # Without it GPU gates would all run at once on GPU 0: do not run them.
    _arena_dashboard_fail("ctest_test not run: resource spec file ${RESOURCE_SPEC_FILE} does not exist")
    set(_arena_run_tests FALSE)
  endif()
endif()
if(_arena_run_tests)
  set(_test_args PARALLEL_LEVEL ${PARALLEL_LEVEL} RETURN_VALUE _rv CAPTURE_CMAKE_ERROR _err
                 OUTPUT_JUNIT "${JUNIT_FILE}")
  if(NOT "${LABEL}" STREQUAL "")
    list(APPEND _test_args INCLUDE_LABEL "${LABEL}")
  endif()
  if(NOT "${EXCLUDE_LABEL}" STREQUAL "")
    list(APPEND _test_args EXCLUDE_LABEL "${EXCLUDE_LABEL}")
  endif()
  if(NOT "${RESOURCE_SPEC_FILE}" STREQUAL "")
    list(APPEND _test_args RESOURCE_SPEC_FILE "${RESOURCE_SPEC_FILE}")
    _arena_dashboard_say("ctest_test: resource spec file ${RESOURCE_SPEC_FILE}")
  endif()
  ctest_test(${_test_args})
  # What ran, from the tag's Test.xml: a label filter that matches nothing is an error, and
  # the failed tests are named.
  set(_ntests 0)
  set(_failed_names "")
  set(_test_xml "${CTEST_BINARY_DIRECTORY}/Testing/${_tag}/Test.xml")
  if(EXISTS "${_test_xml}")
    file(STRINGS "${_test_xml}" _tests REGEX "<Test Status=")
    list(LENGTH _tests _ntests)
    file(READ "${_test_xml}" _xml)
    string(REGEX MATCHALL "<Test Status=\"failed\">[ \t\r\n]*<Name>[^<]*</Name>" _failed "${_xml}")
    foreach(_f IN LISTS _failed)
      string(REGEX REPLACE ".*<Name>([^<]*)</Name>" "\\1" _f "${_f}")
      string(APPEND _failed_names " ${_f}")
    endforeach()
    unset(_xml)
  endif()
  if(_ntests EQUAL 0)
    # Checked first: CTest reports "no tests" as an error too, which would hide the reason.
    execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" --print-labels WORKING_DIRECTORY "${CTEST_BINARY_DIRECTORY}"
                    OUTPUT_VARIABLE _labels ERROR_QUIET)
    string(REGEX MATCHALL "\n  [^\n]+" _labels "${_labels}")
    string(REGEX REPLACE "\n  " "" _labels "${_labels}")
    list(JOIN _labels ", " _labels)
    if(_labels STREQUAL "")
      set(_labels "none")
    endif()
    _arena_dashboard_fail("ctest_test (no test matched LABEL '${LABEL}' EXCLUDE_LABEL '${EXCLUDE_LABEL}'; the labels are: ${_labels})")
  elseif(NOT _rv EQUAL 0 OR _err EQUAL -1)
    if(NOT _failed_names STREQUAL "")
      set(_what "failed:${_failed_names}")
    else()
      set(_what "tests failed or did not run")
    endif()
    _arena_dashboard_fail("ctest_test (return value ${_rv}, ${_what}, see ${CTEST_BINARY_DIRECTORY}/Testing/Temporary/LastTest_${_tag}.log and ${JUNIT_FILE})")
  else()
    _arena_dashboard_say("ctest_test: ok (${_ntests} test(s), JUnit: ${JUNIT_FILE})")
  endif()
endif()

if(SUBMIT)
  set(_submit_args RETURN_VALUE _rv CAPTURE_CMAKE_ERROR _err BUILD_ID _build_id
                   RETRY_COUNT ${SUBMIT_RETRY_COUNT} RETRY_DELAY ${SUBMIT_RETRY_DELAY})
  if(NOT "$ENV{CDASH_TOKEN}" STREQUAL "")
    list(APPEND _submit_args HTTPHEADER "Authorization: Bearer $ENV{CDASH_TOKEN}")
    _arena_dashboard_say("ctest_submit: with the bearer token from CDASH_TOKEN")
  endif()
  # CTEST_SUBMIT_URL may also come from CTestConfig.cmake, read by ctest_start.
  _arena_dashboard_say("ctest_submit: to ${CTEST_SUBMIT_URL}")
  ctest_submit(${_submit_args})
  # CTest 3.25 returns 0 when the server answered HTTP 200 with a CDash error status; its
  # submit log says so, so read it too.
  set(_submit_log "${CTEST_BINARY_DIRECTORY}/Testing/Temporary/LastSubmit_${_tag}.log")
  set(_submit_log_errors "")
  if(EXISTS "${_submit_log}")
    file(STRINGS "${_submit_log}" _submit_log_errors REGEX "Errors occurred during submission|Problems when submitting")
  endif()
  if(NOT _rv EQUAL 0 OR _err EQUAL -1 OR _submit_log_errors)
    if(_rv EQUAL 0 AND _submit_log_errors)
      # CTest 3.25 returns 0 here: the server answered HTTP 200 but with a CDash error status.
      set(_what "the server answered with an error status")
    else()
      set(_what "return value ${_rv}")
    endif()
    _arena_dashboard_fail("ctest_submit (${_what}, to ${CTEST_SUBMIT_URL}, see ${_submit_log})")
  else()
    _arena_dashboard_say("ctest_submit: ok (CDash build id '${_build_id}')")
  endif()
else()
  _arena_dashboard_say("ctest_submit skipped (SUBMIT=OFF)")
endif()

if(NOT "${_arena_failed}" STREQUAL "")
  message(FATAL_ERROR "ArenaDashboard: failed step(s):${_arena_failed}")
endif()
_arena_dashboard_say("all steps passed")
