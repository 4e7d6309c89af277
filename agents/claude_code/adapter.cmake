# claude_code: Claude Code's non-interactive mode (npm package @anthropic-ai/claude-code).
# The prompt is the argument of --print; tools run without asking (the sandbox, not the
# agent's permission prompts, is the boundary); the transcript is stream-json on stdout.
find_program(_claude NAMES claude)
if(NOT _claude)
  set(_claude claude)  # recorded as a failure to start, and the gates judge the unchanged candidate
endif()
set(ARENA_AGENT_COMMAND "${_claude}" --print "${ARENA_PROMPT_TEXT}" --output-format stream-json --verbose
    --permission-mode bypassPermissions)
if(ARENA_MODEL)
  list(APPEND ARENA_AGENT_COMMAND --model "${ARENA_MODEL}")
endif()
# Effort: Claude Code reads its thinking budget from the environment.
if(ARENA_EFFORT MATCHES "^[0-9]+$")
  list(APPEND ARENA_AGENT_ENV "MAX_THINKING_TOKENS=${ARENA_EFFORT}")
endif()
set(ARENA_AGENT_CONFIG_DIRS "$ENV{HOME}/.claude" "$ENV{HOME}/.claude.json")
