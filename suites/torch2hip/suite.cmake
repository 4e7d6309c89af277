# torch2hip: a PyTorch model translated into a HIP kernel (README.md beside this file). The
# agent starts from an ABI skeleton; reference.py is the oracle (float64) and the perf
# reference (eager, plus torch.compile where the spec asks), served to the runners by the
# Python host; kernel.hip compiles like hip2hip's.
set(ARENA_SUITE_KERNEL_KIND hip)
set(ARENA_SUITE_PLATFORMS nvidia amd)
set(ARENA_SUITE_RUNNER python)
set(ARENA_SUITE_TASK_FILES REFERENCE=reference.py SOLUTION=solution.hip)
set(ARENA_SUITE_PROMPT "${CMAKE_CURRENT_LIST_DIR}/prompt.md")
set(ARENA_SUITE_CANDIDATE_FILE kernel.hip)
set(ARENA_SUITE_COMPILE "${ARENA_CMAKE}" -DSOURCE=<SOURCE> -DOUTPUT=<OUTPUT> "-DTOOLCHAIN=${ARENA_TOOLCHAIN}"
    -DWHAT=<WHAT> -DRESULT=<RESULT> -DCONFINE=<CONFINE> -P "${ARENA_COMPILE_SCRIPT}")
set(ARENA_SUITE_COMPILED_SUFFIX .so)
set(ARENA_SUITE_START skeleton)
set(ARENA_SUITE_BASELINE "py:torch:eager:${ARENA_TASK_DIR}")
set(ARENA_SUITE_BASELINE_SIDE torch_eager)
set(ARENA_SUITE_REFERENCE "py:torch:oracle:${ARENA_TASK_DIR}")
set(ARENA_SUITE_PERF_ARGS --baseline-name "torch eager")
if(ARENA_TASK_TORCH_COMPILE)
  list(APPEND ARENA_SUITE_PERF_ARGS --extra-reference "torch.compile=py:torch:compile:${ARENA_TASK_DIR}")
  set(ARENA_SUITE_PERF_EXTRA_S 300)  # torch.compile compiles each seen configuration first
endif()
# Eager PyTorch in the task's dtypes must itself meet the tolerances asked of candidates.
set(ARENA_SUITE_ORACLE_CHECK eager_correct)
set(ARENA_SUITE_ORACLE_CHECK_KERNEL "py:torch:eager_out:${ARENA_TASK_DIR}")
set(ARENA_SUITE_WORKSPACE_FILES reference.py)
set(ARENA_SUITE_VERSUS "eager PyTorch (and torch.compile)")
