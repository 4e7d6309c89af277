# replay: puts the task's expert solution in place of the candidate (solution.hip, or
# solution.py where the candidate is a Triton module). It reads the task's folder, which no
# agent may see, so it is a harness-side step and never sandboxed.
# A task added with arena_add_task(... SOLUTION <file>) names its solution (ARENA_SOLUTION_FILE).
get_filename_component(_replay_ext "${ARENA_CANDIDATE_FILE}" LAST_EXT)
if(ARENA_SOLUTION_FILE)
  set(_replay_solution "${ARENA_SOLUTION_FILE}")
else()
  set(_replay_solution "${ARENA_TASK_DIR}/solution${_replay_ext}")
endif()
if(NOT EXISTS "${_replay_solution}")
  message(FATAL_ERROR "replay: no solution at ${_replay_solution}")
endif()
set(ARENA_AGENT_COMMAND "${CMAKE_COMMAND}" -E copy "${_replay_solution}" "${ARENA_WORKSPACE}/${ARENA_CANDIDATE_FILE}")
set(ARENA_AGENT_TRUSTED TRUE)
