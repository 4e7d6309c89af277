# GPU memory in the resource spec (cmake -P, from tests/CMakeLists.txt; docs/DESIGN.md,
# "Scheduling"): with a fake nvidia-smi that lists two 80 GB GPUs, configure gives each GPU
# floor(81559 MiB / 1 GiB) = 79 units of type gpus; a correctness gate asks for the units its
# estimated memory needs, at least ceil(79 / ARENA_PERF_SLOTS = 16) = 5, so of two toy tasks
# that differ only in their tensors' sizes the bigger one asks for more; a perf gate asks for all.
# Each gate's environment gives it its share of the host's cores (ARENA_HOST_THREADS).
#   -DSOURCE_DIR=<project> -DWORK_DIR=<scratch> -DPLATFORM=<nvidia|amd|none>
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/scheduling_common.cmake")
run_only_on_nvidia("${PLATFORM}")
file(REMOVE_RECURSE "${WORK_DIR}")

# The fake nvidia-smi: two GPUs, 81559 MiB each (an H100 80GB).
write_fake_nvidia_smi("${WORK_DIR}/bin" 2 81559)

# Two toy tasks from one shipped task: toy_small as it is, toy_big with a seen configuration
# whose input is 256 x 4096 x 4096 halves (8 GiB, twice with its pristine copy).
set(origin "${SOURCE_DIR}/tasks/hip2hip/avgpool_global_f16")
foreach(name toy_small toy_big)
  file(COPY "${origin}/" DESTINATION "${WORK_DIR}/tasks/hip2hip/${name}")
  file(READ "${origin}/task.json" spec)
  string(JSON spec SET "${spec}" name "\"${name}\"")
  if(name STREQUAL "toy_big")
    string(JSON spec SET "${spec}" configs seen 0 [=[{"B": 256, "C": 4096, "HW": 4096}]=])
  endif()
  file(WRITE "${WORK_DIR}/tasks/hip2hip/${name}/task.json" "${spec}")
endforeach()

execute_process(COMMAND "${CMAKE_COMMAND}" -E env "PATH=${WORK_DIR}/bin:$ENV{PATH}"
                        "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}/build"
                        "-DARENA_TASKS_DIR=${WORK_DIR}/tasks" -DARENA_SUITES=hip2hip -DARENA_BUILD_FRAMEWORK_TESTS=OFF
                        "-DARENA_HIP_PLATFORM=${PLATFORM}" -DARENA_SELFTEST=OFF -DARENA_PERF_SLOTS=16
                        -DARENA_GPU_MEMORY_UNIT_GB=1 -DARENA_PERF_SCHEDULE=exclusive
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  fail("configure failed (exit ${rc}):\n${out}${err}")
endif()

file(READ "${WORK_DIR}/build/arena_resources.json" spec)
string(JSON gpus LENGTH "${spec}" local 0 gpus)
if(NOT gpus EQUAL 2)
  fail("arena_resources.json lists ${gpus} GPU(s), the fake nvidia-smi two: ${spec}")
endif()
foreach(i 0 1)
  string(JSON units GET "${spec}" local 0 gpus ${i} slots)
  if(NOT units EQUAL 79)
    fail("GPU ${i} has ${units} units in arena_resources.json, not 79 (81559 MiB in 1 GiB units): ${spec}")
  endif()
endforeach()

# Each test's RESOURCE_GROUPS, as ctest reads them: one group of type gpus.
read_tests("${WORK_DIR}/build" tests)
function(units_of test out)
  resources_of("${tests}" "${test}" type slots)
  if(NOT type STREQUAL "gpus")
    fail("${test} asks for '${type}', not gpus")
  endif()
  set(${out} ${slots} PARENT_SCOPE)
endfunction()

# ARENA_HOST_THREADS in a test's ENVIRONMENT, as ctest reads it (empty when not set).
function(host_threads_of test out)
  property_of("${tests}" "${test}" ENVIRONMENT env)
  set(${out} "" PARENT_SCOPE)
  if(env STREQUAL "")
    return()
  endif()
  string(JSON nv LENGTH "${env}")
  math(EXPR vlast "${nv} - 1")
  foreach(v RANGE ${vlast})
    string(JSON e GET "${env}" ${v})
    if(e MATCHES "^ARENA_HOST_THREADS=(.*)$")
      set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()

# Host threads: a correctness gate gets its share of the cores, cores / (16 slots x 2 GPUs), a
# perf gate (one per GPU) cores / 2; at least 1 each.
cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
math(EXPR want_gate "${cores} / 32")
math(EXPR want_perf "${cores} / 2")
if(want_gate LESS 1)
  set(want_gate 1)
endif()
if(want_perf LESS 1)
  set(want_perf 1)
endif()
foreach(gate correct_seen correct_unseen perf)
  host_threads_of("hip2hip/toy_small/${gate}" got)
  set(want ${want_gate})
  if(gate STREQUAL "perf")
    set(want ${want_perf})
  endif()
  if(NOT got STREQUAL want)
    fail("toy_small/${gate} has ARENA_HOST_THREADS='${got}' in its environment, not ${want} (${cores} cores, 16 slots, 2 GPUs)")
  endif()
endforeach()

units_of("hip2hip/toy_small/correct_seen" small)
units_of("hip2hip/toy_big/correct_seen" big)
units_of("hip2hip/toy_big/correct_unseen" big_unseen)
units_of("hip2hip/toy_big/perf" perf)
if(NOT small EQUAL 5)
  fail("toy_small/correct_seen asks for ${small} units, not the fewest a correctness gate takes (ceil(79 / 16) = 5)")
endif()
if(NOT big GREATER 16)
  fail("toy_big/correct_seen asks for ${big} units: its 16 GiB input and pristine copy need more than 16")
endif()
if(NOT big_unseen EQUAL small)
  fail("toy_big/correct_unseen (the shipped unseen configurations) asks for ${big_unseen} units, toy_small's seen ${small}")
endif()
if(NOT perf EQUAL 79)
  fail("toy_big/perf asks for ${perf} units, not all 79 of its GPU (ARENA_PERF_SCHEDULE=exclusive)")
endif()
message(STATUS "GPU memory units: 79 per GPU; correctness gates ask ${small} (toy_small) and ${big} (toy_big); perf ${perf}; "
               "host threads: ${want_gate} per correctness gate, ${want_perf} per perf gate (${cores} cores)")
