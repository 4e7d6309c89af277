# hip2triton, a suite of the framework's tests (tests/suites/README.md): a HIP kernel rewritten
# as a module of Triton kernels. The baseline stays the HIP kernel, built with the project;
# the candidate kernel.py passes the Triton module rules (triton2triton's compile gate) and
# runs in Python workers under the native runners; the oracle is reference.cpp. Agents start
# from start.py in the task's folder.
set(ARENA_SUITE_KERNEL_KIND triton)
set(ARENA_SUITE_PLATFORMS nvidia amd)
set(ARENA_SUITE_RUNNER native)
set(ARENA_SUITE_PROFILE_RUNNER python)  # the profiler launches the module in process
set(ARENA_SUITE_PROMPT "${CMAKE_CURRENT_LIST_DIR}/prompt.md")
set(ARENA_SUITE_TASK_FILES BASELINE=baseline.hip REFERENCE=reference.cpp SOLUTION=solution.py)
set(ARENA_SUITE_CANDIDATE_FILE kernel.py)
set(ARENA_SUITE_COMPILE "${ARENA_PYTHON}" "${ARENA_PY_HOST}/arena_check_triton.py" <SOURCE> <OUTPUT>
    --what <WHAT> --result <RESULT>)
set(ARENA_SUITE_COMPILED_SUFFIX .py)
set(ARENA_SUITE_KERNEL_PREFIX py:triton:kernel:)
set(ARENA_SUITE_START start.py)
# The baseline is HIP: built with hip2hip's command, whatever compiles the candidates.
set(ARENA_SUITE_BUILD_BASELINE ON)
set(ARENA_SUITE_BASELINE_COMPILE "${ARENA_CMAKE}" -DSOURCE=<SOURCE> -DOUTPUT=<OUTPUT> "-DTOOLCHAIN=${ARENA_TOOLCHAIN}"
    -DWHAT=<WHAT> -P "${ARENA_COMPILE_SCRIPT}")
set(ARENA_SUITE_BASELINE "${ARENA_TASK_KERNELS}/baseline.so")
set(ARENA_SUITE_BUILD_REFERENCE ON)
set(ARENA_SUITE_REFERENCE "${ARENA_TASK_KERNELS}/reference.so")
set(ARENA_SUITE_WORKSPACE_FILES baseline.hip)  # the kernel to port, beside the module
set(ARENA_SUITE_VERSUS "the HIP baseline")
