# cursor: Cursor's CLI agent in print mode (installed as `agent`, formerly `cursor-agent`;
# not on npm). --force lets it run commands and write files without asking. The prompt is
# read from prompt.md by the shell.
find_program(_cursor NAMES agent cursor-agent)
if(NOT _cursor)
  set(_cursor agent)
endif()
set(ARENA_AGENT_COMMAND /bin/sh -c "c=$1\nshift\nexec \"$c\" --print --force \"$@\" \"$(cat \"$0\")\"" "${ARENA_PROMPT_FILE}" "${_cursor}"
    --output-format stream-json)
if(ARENA_MODEL)
  list(APPEND ARENA_AGENT_COMMAND --model "${ARENA_MODEL}")
endif()
set(ARENA_AGENT_CONFIG_DIRS "$ENV{HOME}/.cursor" "$ENV{HOME}/.config/cursor")
