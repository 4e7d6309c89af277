# The degenerate-task filter as task validation (label selftest, plus filter or launch_bound;
# not the suite's label, so suite runs leave them out). For every task with its oracle and solution:
#
#   selftest/<suite>/<task>/filter        the oracle on the CPU (arena-task-filter): outputs that are
#                                         constant, mostly below the tolerance, mostly one value or
#                                         identical across configurations, inputs or params the outputs
#                                         do not depend on; no GPU, so it also runs in CI
#   selftest/<suite>/<task>/launch_bound  reads solution_faster's timings: a seen configuration where the
#                                         baseline (eager PyTorch for torch2hip) is under 5 us is
#                                         launch-bound; needs solution_faster (a GPU), else skipped
#
# torch2hip tasks run the filter inside Python (harness/python/arena_task_filter.py, the Python
# host's libarena_tools.so), with reference.py as the oracle; the others run arena-task-filter on
# the task's reference.so.
include_guard(GLOBAL)

# Called by _arena_add_selftests (cmake/ArenaTasks.cmake) once the task's <prefix>/solution_faster
# exists. REFERENCE is the gates' --reference: a reference library, or py:torch:oracle:<dir>.
function(_arena_add_task_filter prefix rdir)
  cmake_parse_arguments(PARSE_ARGV 2 F "" "SPEC;REFERENCE" "LABELS")
  set(py "${ARENA_PYTHON}")
  if(NOT py)
    set(py python3)
  endif()
  if(F_REFERENCE MATCHES "^py:")
    set(cmd "${py}" "${ARENA_PY_HOST_DIR}/arena_task_filter.py" "$<TARGET_FILE:KernelArena::arena_tools>")
  else()
    set(cmd "$<TARGET_FILE:KernelArena::arena-task-filter>")
  endif()
  add_test(NAME ${prefix}/filter
    COMMAND ${cmd} --task "${F_SPEC}" --reference "${F_REFERENCE}" --result "${rdir}/filter.json")
  set_tests_properties(${prefix}/filter PROPERTIES
    LABELS "${F_LABELS};filter" SKIP_RETURN_CODE 77 TIMEOUT 600 ENVIRONMENT "ARENA_PYTHON=${ARENA_PYTHON}")
  add_test(NAME ${prefix}/launch_bound
    COMMAND "$<TARGET_FILE:KernelArena::arena-task-filter>" --task "${F_SPEC}"
            --perf-result "${rdir}/solution_faster.json" --result "${rdir}/launch_bound.json")
  set_tests_properties(${prefix}/solution_faster PROPERTIES FIXTURES_SETUP "${prefix}/timed")
  set_tests_properties(${prefix}/launch_bound PROPERTIES
    LABELS "${F_LABELS};launch_bound" FIXTURES_REQUIRED "${prefix}/timed" SKIP_RETURN_CODE 77 TIMEOUT 60)
endfunction()
