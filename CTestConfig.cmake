# CDash settings, read by include(CTest) at configure time (DartConfiguration.tcl, used by
# `ctest -D Experimental` and friends) and by ctest_start() in dashboard scripts
# (cmake/ArenaDashboard.cmake).
#
# The submit URL, first match wins:
#   1. the ARENA_CDASH_SUBMIT_URL CMake variable: `cmake -DARENA_CDASH_SUBMIT_URL=...` (kept in
#      the cache) or `ctest -DARENA_CDASH_SUBMIT_URL=... -S ...`;
#   2. CTEST_SUBMIT_URL when already set: `cmake -DCTEST_SUBMIT_URL=...`, or a dashboard
#      script that set it before ctest_start() (ArenaDashboard.cmake's SUBMIT_URL);
#   3. the ARENA_CDASH_SUBMIT_URL environment variable;
#   4. the project's public dashboard below.
set(CTEST_PROJECT_NAME "KernelArena")
set(CTEST_NIGHTLY_START_TIME "01:00:00 UTC")

if(DEFINED PROJECT_NAME)
  # Configuring a project: make the override visible in the cache (empty = not set).
  set(ARENA_CDASH_SUBMIT_URL "" CACHE STRING
      "CDash submit URL (empty: CTEST_SUBMIT_URL, the ARENA_CDASH_SUBMIT_URL environment variable, or my.cdash.org)")
endif()

if(NOT "${ARENA_CDASH_SUBMIT_URL}" STREQUAL "")
  set(CTEST_SUBMIT_URL "${ARENA_CDASH_SUBMIT_URL}")
elseif(DEFINED CTEST_SUBMIT_URL AND NOT "${CTEST_SUBMIT_URL}" STREQUAL "")
  # Keep the caller's value.
elseif(NOT "$ENV{ARENA_CDASH_SUBMIT_URL}" STREQUAL "")
  set(CTEST_SUBMIT_URL "$ENV{ARENA_CDASH_SUBMIT_URL}")
else()
  set(CTEST_SUBMIT_URL "https://my.cdash.org/submit.php?project=${CTEST_PROJECT_NAME}")
endif()
