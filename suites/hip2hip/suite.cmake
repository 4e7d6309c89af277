# hip2hip: a HIP kernel made faster (README.md beside this file has the rules). The candidate
# kernel.hip compiles with the baseline's command into a shared library; the oracle
# reference.cpp is built with the project; the native runners judge both.
set(ARENA_SUITE_KERNEL_KIND hip)
set(ARENA_SUITE_PLATFORMS nvidia amd)
set(ARENA_SUITE_RUNNER native)
set(ARENA_SUITE_TASK_FILES BASELINE=baseline.hip REFERENCE=reference.cpp SOLUTION=solution.hip)
set(ARENA_SUITE_PROMPT "${CMAKE_CURRENT_LIST_DIR}/prompt.md")
set(ARENA_SUITE_CANDIDATE_FILE kernel.hip)
set(ARENA_SUITE_COMPILE "${ARENA_CMAKE}" -DSOURCE=<SOURCE> -DOUTPUT=<OUTPUT> "-DTOOLCHAIN=${ARENA_TOOLCHAIN}"
    -DWHAT=<WHAT> -DRESULT=<RESULT> -DCONFINE=<CONFINE> -P "${ARENA_COMPILE_SCRIPT}")
set(ARENA_SUITE_COMPILED_SUFFIX .so)
set(ARENA_SUITE_START baseline)
set(ARENA_SUITE_BUILD_BASELINE ON)
set(ARENA_SUITE_BASELINE "${ARENA_TASK_KERNELS}/baseline.so")
set(ARENA_SUITE_BUILD_REFERENCE ON)
set(ARENA_SUITE_REFERENCE "${ARENA_TASK_KERNELS}/reference.so")
