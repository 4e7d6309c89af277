# replay: puts the task's expert solution in place of the candidate. It reads the task's
# folder, which no agent may see, so it is a harness-side step and never sandboxed.
if(NOT EXISTS "${ARENA_TASK_DIR}/solution.hip")
  message(FATAL_ERROR "replay: ${ARENA_TASK_DIR} has no solution.hip")
endif()
set(ARENA_AGENT_COMMAND "${CMAKE_COMMAND}" -E copy "${ARENA_TASK_DIR}/solution.hip" "${ARENA_WORKSPACE}/${ARENA_CANDIDATE_FILE}")
set(ARENA_AGENT_TRUSTED TRUE)
