# CDash settings for `ctest -D` / `ctest -S` submissions. Override the server with
# -DCTEST_SUBMIT_URL=... or the ARENA_CDASH_SUBMIT_URL environment variable.
set(CTEST_PROJECT_NAME "KernelArena")
set(CTEST_NIGHTLY_START_TIME "01:00:00 UTC")
if(DEFINED ENV{ARENA_CDASH_SUBMIT_URL})
  set(CTEST_SUBMIT_URL "$ENV{ARENA_CDASH_SUBMIT_URL}")
elseif(NOT DEFINED CTEST_SUBMIT_URL)
  set(CTEST_SUBMIT_URL "https://my.cdash.org/submit.php?project=KernelArena")
endif()
