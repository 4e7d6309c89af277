# cursor: Cursor's CLI agent in print mode (installed as `agent`, formerly `cursor-agent`;
# not on npm). --force lets it run commands and write files without asking.
find_program(_cursor NAMES agent cursor-agent)
if(NOT _cursor)
  set(_cursor agent)
endif()
set(ARENA_AGENT_COMMAND "${_cursor}" --print --force --output-format stream-json)
if(ARENA_MODEL)
  list(APPEND ARENA_AGENT_COMMAND --model "${ARENA_MODEL}")
endif()
list(APPEND ARENA_AGENT_COMMAND "${ARENA_PROMPT_TEXT}")
set(ARENA_AGENT_CONFIG_DIRS "$ENV{HOME}/.cursor" "$ENV{HOME}/.config/cursor")
