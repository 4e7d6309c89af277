# cmake -P: configure's choice of ARENA_PYTHON (cmake/ArenaPython.cmake) on two fake Pythons,
# each a script named python3 in a folder of its own that runs the real interpreter without its
# site-packages (-S) and with a folder of stand-in modules first on its path:
#   bare/python3   imports neither torch nor triton
#   torch/python3  imports torch 9.9.0+fake (and no triton)
# Each case configures a small project that calls arena_choose_python() as the top-level
# CMakeLists.txt does, with PATH set to the fakes only and no fallbacks, and checks the pick,
# the status line and the cache; then the project itself is configured (host only) the same way.
#
#   cmake -DWORK_DIR=<dir> -DSOURCE_DIR=<repo> -DREAL_PYTHON=<python3> -DCXX=<c++>
#         -DGENERATOR=<generator> -DMAKE=<its make program> -P check.cmake
cmake_minimum_required(VERSION 3.25)
foreach(_v WORK_DIR SOURCE_DIR REAL_PYTHON CXX GENERATOR MAKE)
  if(NOT ${_v})
    message(FATAL_ERROR "check.cmake: -D${_v}= is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
# The interpreter itself (a pyenv shim needs the PATH the fakes take away).
execute_process(COMMAND "${REAL_PYTHON}" -c "import sys; print(sys.executable)"
                OUTPUT_VARIABLE REAL_PYTHON OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT EXISTS "${REAL_PYTHON}")
  message(FATAL_ERROR "check.cmake: the Python given does not run (exit ${rc})")
endif()

set_property(GLOBAL PROPERTY failures 0)
function(fail what)
  message("FAILED: ${what}")
  get_property(n GLOBAL PROPERTY failures)
  math(EXPR n "${n} + 1")
  set_property(GLOBAL PROPERTY failures ${n})
endfunction()

# The two fakes. Each logs its calls, so the test can tell whether configure asked again.
file(WRITE "${WORK_DIR}/modules/torch/torch/__init__.py" "__version__ = '9.9.0+fake'\n")
file(MAKE_DIRECTORY "${WORK_DIR}/modules/bare")
foreach(kind bare torch)
  file(WRITE "${WORK_DIR}/${kind}/python3"
       "#!/bin/sh\necho called >>'${WORK_DIR}/${kind}.calls'\n"
       "PYTHONPATH='${WORK_DIR}/modules/${kind}' exec '${REAL_PYTHON}' -S \"$@\"\n")
  file(CHMOD "${WORK_DIR}/${kind}/python3" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE)
endforeach()
set(bare "${WORK_DIR}/bare/python3")
set(torch "${WORK_DIR}/torch/python3")

# A project that picks a Python for the suites it is given, as the top level does.
file(WRITE "${WORK_DIR}/project/CMakeLists.txt" "cmake_minimum_required(VERSION 3.25)
project(python_choice NONE)
list(APPEND CMAKE_MODULE_PATH \"${SOURCE_DIR}/cmake\")
include(ArenaPython)
arena_choose_python(SUITES \${SUITES})
")

# configure <name> <PATH> <args...>: sets out (stdout + stderr), rc and picked (ARENA_PYTHON in the cache).
macro(configure name path)
  set(_build "${WORK_DIR}/${name}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env "PATH=${path}"
                          "${CMAKE_COMMAND}" -S "${WORK_DIR}/project" -B "${_build}" -G "${GENERATOR}" "-DCMAKE_MAKE_PROGRAM=${MAKE}"
                          -DARENA_PYTHON_FALLBACKS=none ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(APPEND out "${err}")
  set(picked "")
  if(EXISTS "${_build}/CMakeCache.txt")
    file(STRINGS "${_build}/CMakeCache.txt" _line REGEX "^ARENA_PYTHON:")
    string(REGEX REPLACE "^[^=]*=" "" picked "${_line}")
  endif()
  if(NOT rc EQUAL 0)
    fail("${name}: configure failed (exit ${rc}):\n${out}")
  endif()
endmacro()

function(expect_line name regex)
  string(REGEX MATCH "KernelArena Python: [^\n]*" line "${out}")
  if(NOT line MATCHES "${regex}")
    fail("${name}: the status line\n  ${line}\ndoes not match\n  ${regex}")
  endif()
endfunction()

function(expect_pick name python)
  if(NOT picked STREQUAL "${python}")
    fail("${name}: ARENA_PYTHON is '${picked}', expected '${python}'")
  endif()
endfunction()

string(REPLACE "/python3" "" bare_dir "${bare}")
string(REPLACE "/python3" "" torch_dir "${torch}")
string(REPLACE "+" "\\+" esc_version "9.9.0+fake")

# 1. torch2hip needs torch: the second Python on PATH has it, so it is taken over the first.
configure(torch_second "${bare_dir}:${torch_dir}" -DSUITES=torch2hip)
expect_pick(torch_second "${torch}")
expect_line(torch_second "^KernelArena Python: ${torch} \\(Python [0-9.]+; torch ${esc_version}, triton missing\\) - torch2hip have what they need \\[picked of 2 tried: ${bare} \\(torch missing, triton missing\\); ${torch} \\(torch ${esc_version}, triton missing\\)\\]")
# ... and kept on the next configure without asking either Python again.
file(REMOVE "${WORK_DIR}/bare.calls" "${WORK_DIR}/torch.calls")
configure(torch_second "${bare_dir}:${torch_dir}" -DSUITES=torch2hip)
expect_pick(torch_second_again "${torch}")
expect_line(torch_second_again "^KernelArena Python: ${torch} \\(Python [0-9.]+; torch ${esc_version}")
if(EXISTS "${WORK_DIR}/bare.calls" OR EXISTS "${WORK_DIR}/torch.calls")
  fail("torch_second_again: configure asked the Pythons again although its pick had everything")
endif()

# 2. triton2triton needs torch and triton: no Python has triton; the one with torch is taken and
#    the line says what skips.
configure(triton "${bare_dir}:${torch_dir}" -DSUITES=triton2triton)
expect_pick(triton "${torch}")
expect_line(triton "^KernelArena Python: ${torch} \\(Python [0-9.]+; torch ${esc_version}, triton missing\\) - triton2triton's GPU gates skip \\(no triton\\)")

# 3. No Python with torch: the first is taken, and the line says torch2hip's checks skip.
configure(no_torch "${bare_dir}" -DSUITES=torch2hip)
expect_pick(no_torch "${bare}")
expect_line(no_torch "^KernelArena Python: ${bare} \\(Python [0-9.]+; torch missing, triton missing\\) - torch2hip's gates and CPU checks of reference.py skip \\(no torch\\)")

# 4. No suite needs torch: the first Python on PATH, asked once.
configure(no_needs "${bare_dir}:${torch_dir}" -DSUITES=hip2hip)
expect_pick(no_needs "${bare}")
expect_line(no_needs "^KernelArena Python: ${bare} \\(Python [0-9.]+; torch missing, triton missing\\) - no configured suite needs torch or triton \\[picked of 1 tried\\]")

# 5. ARENA_PYTHON given: used as given, with a warning when it lacks torch.
configure(given "${torch_dir}:${bare_dir}" -DSUITES=torch2hip "-DARENA_PYTHON=${bare}")
expect_pick(given "${bare}")
expect_line(given "^KernelArena Python: ${bare} \\(Python [0-9.]+; torch missing, triton missing\\) - torch2hip's gates [^\n]*\\[ARENA_PYTHON as given\\]")
string(REGEX REPLACE "[ \n]+" " " flat "${out}")  # CMake wraps a warning's lines
if(NOT flat MATCHES "ARENA_PYTHON=${bare} lacks what the configured suites need: torch2hip's gates")
  fail("given: no warning that ARENA_PYTHON lacks torch:\n${out}")
endif()

# 6. The project itself (host only: no suites, so nothing needed) prints the line and caches the
#    pick: the first python3 on PATH (the compiler's tools stay on PATH after the fakes).
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "PATH=${bare_dir}:${torch_dir}:$ENV{PATH}"
                        "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}/host_only" -G "${GENERATOR}" -DARENA_HIP_PLATFORM=none
                        "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_MAKE_PROGRAM=${MAKE}" -DARENA_PYTHON_FALLBACKS=none
                        -DARENA_BUILD_FRAMEWORK_TESTS=OFF
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(APPEND out "${err}")
if(NOT rc EQUAL 0)
  fail("host_only: configure of the project failed (exit ${rc}):\n${out}")
else()
  file(STRINGS "${WORK_DIR}/host_only/CMakeCache.txt" _line REGEX "^ARENA_PYTHON:")
  string(REGEX REPLACE "^[^=]*=" "" picked "${_line}")
  expect_pick(host_only "${bare}")
  expect_line(host_only "^KernelArena Python: ${bare} \\(Python [0-9.]+; torch missing, triton missing\\)")
endif()

get_property(failures GLOBAL PROPERTY failures)
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} check(s) failed")
endif()
message("python choice: all 6 cases as expected")
