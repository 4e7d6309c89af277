# claude_code: Claude Code's non-interactive mode (npm package @anthropic-ai/claude-code).
# The prompt comes from the workspace's prompt.md (read by the shell, so no quoting of the
# text is involved); edits and shell commands are allowed up front (the sandbox, not the
# agent's permission prompts, is the boundary; the bypass mode is refused when run as
# root); the transcript is stream-json on stdout.
find_program(_claude NAMES claude)
if(NOT _claude)
  set(_claude claude)  # recorded as a failure to start; the gates judge the unchanged candidate
endif()
set(ARENA_AGENT_COMMAND /bin/sh -c "c=$1\nshift\nexec \"$c\" --print \"$(cat \"$0\")\" \"$@\"" "${ARENA_PROMPT_FILE}" "${_claude}"
    --output-format stream-json --verbose --permission-mode acceptEdits
    --allowedTools "Bash,Read,Edit,MultiEdit,Write,Glob,Grep,TodoWrite")
if(ARENA_MODEL)
  list(APPEND ARENA_AGENT_COMMAND --model "${ARENA_MODEL}")
endif()
# Effort: Claude Code reads its thinking budget from the environment.
if(ARENA_EFFORT MATCHES "^[0-9]+$")
  list(APPEND ARENA_AGENT_ENV "MAX_THINKING_TOKENS=${ARENA_EFFORT}")
endif()
set(ARENA_AGENT_CONFIG_DIRS "$ENV{HOME}/.claude" "$ENV{HOME}/.claude.json")
