# Third-party libraries: GoogleTest (correctness runner and unit tests), Google Benchmark
# (perf runner), nlohmann_json (task specs, results) and Random123 (counter-based RNG).
find_package(GTest REQUIRED)
find_package(benchmark REQUIRED)
find_package(nlohmann_json 3.9 REQUIRED)
find_package(Threads REQUIRED)

find_path(ARENA_RANDOM123_INCLUDE_DIR Random123/philox.h
  HINTS "${ARENA_DEPS_DIR}/usr/include"
  DOC "Random123 headers (Debian: librandom123-dev)")
if(NOT ARENA_RANDOM123_INCLUDE_DIR)
  message(FATAL_ERROR "Random123 headers (Random123/philox.h) not found: install librandom123-dev "
                      "or put them under ${ARENA_DEPS_DIR}/usr/include")
endif()
add_library(arena_random123 INTERFACE)
target_include_directories(arena_random123 SYSTEM INTERFACE "${ARENA_RANDOM123_INCLUDE_DIR}")

# The configure-time spec checker (cmake/ArenaTasks.cmake) compiles against nlohmann_json from
# any folder of the project, where this imported target may not be visible.
get_target_property(_arena_json_inc nlohmann_json::nlohmann_json INTERFACE_INCLUDE_DIRECTORIES)
set_property(GLOBAL PROPERTY ARENA_JSON_INCLUDE_DIRS "${_arena_json_inc}")
