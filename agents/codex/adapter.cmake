# codex: OpenAI Codex CLI's non-interactive mode (npm package @openai/codex): `codex exec`
# with workspace-write sandboxing, JSONL events on stdout, run in the workspace.
find_program(_codex NAMES codex)
if(NOT _codex)
  set(_codex codex)
endif()
set(ARENA_AGENT_COMMAND "${_codex}" exec --json --skip-git-repo-check --sandbox workspace-write
    --cd "${ARENA_WORKSPACE}")
if(ARENA_MODEL)
  list(APPEND ARENA_AGENT_COMMAND --model "${ARENA_MODEL}")
endif()
if(ARENA_EFFORT)
  list(APPEND ARENA_AGENT_COMMAND --config "model_reasoning_effort=${ARENA_EFFORT}")
endif()
list(APPEND ARENA_AGENT_COMMAND "${ARENA_PROMPT_TEXT}")
set(ARENA_AGENT_CONFIG_DIRS "$ENV{HOME}/.codex")
