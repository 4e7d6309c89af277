# ARENA_PERF_SCHEDULE=shared (cmake -P, from tests/CMakeLists.txt; docs/DESIGN.md, "Scheduling"):
# with a fake nvidia-smi listing one 80 GB GPU, the GPU offers its units (type gpus) to
# correctness gates and one slot (type perf_gpus) to a perf gate beside them; both kinds of gate
# get ARENA_GPU_LOCK_DIR, the folder of the lock by which the perf gate times only while no
# correctness gate works on the device (harness/src/gpu_lock.h). Under exclusive no gate gets it:
# a perf gate there holds its GPU through CTest alone.
#   -DSOURCE_DIR=<project> -DWORK_DIR=<scratch> -DPLATFORM=<nvidia|amd|none>
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/scheduling_common.cmake")
run_only_on_nvidia("${PLATFORM}")
scratch_with_one_task("${SOURCE_DIR}" "${WORK_DIR}")
set(build "${WORK_DIR}/build")
write_fake_nvidia_smi("${WORK_DIR}/bin" 1 81559)

macro(configure schedule)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env "PATH=${WORK_DIR}/bin:$ENV{PATH}"
                          "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${build}"
                          "-DARENA_TASKS_DIR=${WORK_DIR}/tasks" -DARENA_SUITES=hip2hip -DARENA_BUILD_FRAMEWORK_TESTS=OFF
                          "-DARENA_HIP_PLATFORM=${PLATFORM}" -DARENA_PERF_SLOTS=8 -DARENA_PERF_SCHEDULE=${schedule}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    fail("configure with ARENA_PERF_SCHEDULE=${schedule} failed (exit ${rc}):\n${log}${err}")
  endif()
  read_tests("${build}" tests)
endmacro()

# The lock folder in `test`'s environment, or "" (lock_dir).
function(lock_dir_of test out)
  property_of("${tests}" "${test}" ENVIRONMENT env)  # a JSON array of NAME=value
  set(dir "")
  if(NOT env STREQUAL "")
    string(JSON n LENGTH "${env}")
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON e GET "${env}" ${i})
      if(e MATCHES "^ARENA_GPU_LOCK_DIR=(.*)$")
        set(dir "${CMAKE_MATCH_1}")
      endif()
    endforeach()
  endif()
  set(${out} "${dir}" PARENT_SCOPE)
endfunction()

set(gates "${task}/correct_seen" "${task}/correct_unseen" "${task}/perf" "selftest/${task}/baseline_correct"
          "selftest/${task}/solution_correct" "selftest/${task}/solution_faster")
configure(shared)
file(READ "${build}/arena_resources.json" spec)
string(JSON n_gpus LENGTH "${spec}" local 0 gpus)
string(JSON n_perf LENGTH "${spec}" local 0 perf_gpus)
string(JSON perf_slots GET "${spec}" local 0 perf_gpus 0 slots)
if(NOT n_gpus EQUAL 1 OR NOT n_perf EQUAL 1 OR NOT perf_slots EQUAL 1)
  fail("shared on one GPU should give it as gpus and as one perf_gpus slot: ${spec}")
endif()
resources_of("${tests}" "${task}/perf" type slots)
if(NOT type STREQUAL "perf_gpus" OR NOT slots EQUAL 1)
  fail("${task}/perf asks for ${slots} of '${type}', not the GPU's one perf slot (perf_gpus:1)")
endif()
foreach(gate IN LISTS gates)
  lock_dir_of("${gate}" dir)
  if(NOT dir STREQUAL "${build}/arena/gpu_locks")
    fail("under shared, ${gate} should have ARENA_GPU_LOCK_DIR=${build}/arena/gpu_locks, not '${dir}'")
  endif()
endforeach()

configure(exclusive)
foreach(gate IN LISTS gates)
  lock_dir_of("${gate}" dir)
  if(NOT dir STREQUAL "")
    fail("under exclusive, ${gate} should have no ARENA_GPU_LOCK_DIR, not '${dir}'")
  endif()
endforeach()
message(STATUS "shared: correctness and perf gates share the GPU through its lock folder; exclusive: no lock folder")
