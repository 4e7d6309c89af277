# triton2triton: a module of Triton kernels made faster (README.md beside this file). The
# candidate kernel.py is checked against the module rules and copied (the compile gate); the
# oracle is reference.cpp, so the plain runners judge, with the modules in Python workers.
set(ARENA_SUITE_KERNEL_KIND triton)
set(ARENA_SUITE_PLATFORMS nvidia amd)
set(ARENA_SUITE_RUNNER native)
set(ARENA_SUITE_PROFILE_RUNNER python)  # the profiler launches each side in process
set(ARENA_SUITE_TASK_FILES BASELINE=baseline.py REFERENCE=reference.cpp SOLUTION=solution.py)
set(ARENA_SUITE_PROMPT "${CMAKE_CURRENT_LIST_DIR}/prompt.md")
set(ARENA_SUITE_CANDIDATE_FILE kernel.py)
set(ARENA_SUITE_COMPILE "${ARENA_PYTHON}" "${ARENA_PY_HOST}/arena_check_triton.py" <SOURCE> <OUTPUT>
    --what <WHAT> --result <RESULT>)
# A production baseline's package modules (task.json "package") may be imported by the
# candidate too; their @triton.jit kernels join the ones its launches may run.
foreach(_arena_module IN LISTS ARENA_TASK_PACKAGE_MODULES)
  list(APPEND ARENA_SUITE_COMPILE --allow-import ${_arena_module})
endforeach()
set(ARENA_SUITE_COMPILED_SUFFIX .py)
set(ARENA_SUITE_KERNEL_PREFIX py:triton:kernel:)
set(ARENA_SUITE_START baseline)
set(ARENA_SUITE_BASELINE "py:triton:kernel:${ARENA_TASK_BASELINE}")
set(ARENA_SUITE_BUILD_REFERENCE ON)
set(ARENA_SUITE_REFERENCE "${ARENA_TASK_KERNELS}/reference.so")
