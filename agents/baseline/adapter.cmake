# baseline: changes nothing; the candidate stays the baseline (an A/A run through the agent path).
set(ARENA_AGENT_COMMAND "${CMAKE_COMMAND}" -E true)
set(ARENA_AGENT_TRUSTED TRUE)
