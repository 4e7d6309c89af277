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

# libseccomp (optional): confined workers deny the system calls that reach other processes,
# the network or the kernel's administration. Without it they are confined by Landlock alone,
# and say so in the gate results.
find_path(ARENA_SECCOMP_INCLUDE_DIR seccomp.h HINTS "${ARENA_DEPS_DIR}/usr/include")
find_library(ARENA_SECCOMP_LIBRARY NAMES seccomp libseccomp.so.2
  HINTS "${ARENA_DEPS_DIR}/usr/lib/x86_64-linux-gnu" "${ARENA_DEPS_DIR}/usr/lib")
if(ARENA_SECCOMP_INCLUDE_DIR AND ARENA_SECCOMP_LIBRARY)
  add_library(arena_seccomp INTERFACE)
  target_include_directories(arena_seccomp SYSTEM INTERFACE "${ARENA_SECCOMP_INCLUDE_DIR}")
  target_link_libraries(arena_seccomp INTERFACE "${ARENA_SECCOMP_LIBRARY}")
  target_compile_definitions(arena_seccomp INTERFACE ARENA_HAVE_SECCOMP=1)
  message(STATUS "KernelArena: confined workers use seccomp (${ARENA_SECCOMP_LIBRARY})")
else()
  add_library(arena_seccomp INTERFACE)
  message(STATUS "KernelArena: libseccomp not found (Debian: libseccomp-dev): confined workers use Landlock only")
endif()
