# codex: OpenAI Codex CLI's non-interactive mode (npm package @openai/codex): `codex exec`
# with workspace-write sandboxing and JSONL events on stdout, run in the workspace. The
# prompt is read from prompt.md on stdin (`-`).
find_program(_codex NAMES codex)
if(NOT _codex)
  set(_codex codex)
endif()
set(ARENA_AGENT_COMMAND /bin/sh -c "c=$1\nshift\nexec \"$c\" exec \"$@\" - < \"$0\"" "${ARENA_PROMPT_FILE}" "${_codex}"
    --json --skip-git-repo-check --sandbox workspace-write --cd "${ARENA_WORKSPACE}")
if(ARENA_MODEL)
  list(APPEND ARENA_AGENT_COMMAND --model "${ARENA_MODEL}")
endif()
if(ARENA_EFFORT)
  list(APPEND ARENA_AGENT_COMMAND --config "model_reasoning_effort=${ARENA_EFFORT}")
endif()
set(ARENA_AGENT_CONFIG_DIRS "$ENV{HOME}/.codex")
