# ARENA_PERF_SCHEDULE=split (cmake -P, from tests/CMakeLists.txt; docs/DESIGN.md, "Scheduling"):
# with a fake nvidia-smi listing four 80 GB GPUs, GPUs 0-1 offer units of type gpus only (for
# correctness gates) and GPUs 2-3 one slot of type perf_gpus only, which perf gates ask for, so
# perf gates never wait for correctness gates to leave a GPU; ARENA_PERF_GPUS=4 leaves no GPU
# for correctness and is refused; with one GPU, split falls back to exclusive, saying so.
#   -DSOURCE_DIR=<project> -DWORK_DIR=<scratch> -DPLATFORM=<nvidia|amd|none>
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/scheduling_common.cmake")
run_only_on_nvidia("${PLATFORM}")
scratch_with_one_task("${SOURCE_DIR}" "${WORK_DIR}")

# configure(<gpus> <extra -D...>): one build folder reconfigured (its arena-spec built once);
# exit and output in rc/log.
set(build "${WORK_DIR}/build")
macro(configure gpus)
  write_fake_nvidia_smi("${WORK_DIR}/bin" ${gpus} 81559)  # one path: configure caches where nvidia-smi is
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env "PATH=${WORK_DIR}/bin:$ENV{PATH}"
                          "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${build}"
                          "-DARENA_TASKS_DIR=${WORK_DIR}/tasks" -DARENA_SUITES=hip2hip -DARENA_BUILD_FRAMEWORK_TESTS=OFF
                          "-DARENA_HIP_PLATFORM=${PLATFORM}" -DARENA_SELFTEST=OFF -DARENA_PERF_SLOTS=8
                          -DARENA_PERF_SCHEDULE=split ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE err)
  string(APPEND log "${err}")
endmacro()

# Four GPUs, ARENA_PERF_GPUS by default (half of them).
configure(4 -DARENA_PERF_GPUS=0)
if(NOT rc EQUAL 0)
  fail("configure with four GPUs and split failed (exit ${rc}):\n${log}")
endif()
file(READ "${build}/arena_resources.json" spec)
string(JSON n_gpus LENGTH "${spec}" local 0 gpus)
string(JSON n_perf LENGTH "${spec}" local 0 perf_gpus)
if(NOT n_gpus EQUAL 2 OR NOT n_perf EQUAL 2)
  fail("split over four GPUs should give 2 of type gpus and 2 of type perf_gpus, not ${n_gpus} and ${n_perf}: ${spec}")
endif()
foreach(i 0 1)
  string(JSON id GET "${spec}" local 0 gpus ${i} id)
  math(EXPR perf_id "${i} + 2")
  string(JSON pid GET "${spec}" local 0 perf_gpus ${i} id)
  string(JSON pslots GET "${spec}" local 0 perf_gpus ${i} slots)
  if(NOT id EQUAL i OR NOT pid EQUAL perf_id OR NOT pslots EQUAL 1)
    fail("split over four GPUs: expected gpus id ${i} and perf_gpus id ${perf_id} with 1 slot, got ${id}, ${pid}, ${pslots}: ${spec}")
  endif()
endforeach()
read_tests("${build}" tests)
resources_of("${tests}" "${task}/perf" type slots)
if(NOT type STREQUAL "perf_gpus" OR NOT slots EQUAL 1)
  fail("${task}/perf asks for ${slots} of '${type}', not the one slot of a timing GPU (perf_gpus:1)")
endif()
resources_of("${tests}" "${task}/correct_seen" type slots)
if(NOT type STREQUAL "gpus")
  fail("${task}/correct_seen asks for '${type}', not units of a correctness GPU (gpus)")
endif()

# Every GPU timing: refused, naming the setting.
configure(4 -DARENA_PERF_GPUS=4)
if(rc EQUAL 0 OR NOT log MATCHES "ARENA_PERF_GPUS is 4")
  fail("ARENA_PERF_GPUS=4 of 4 GPUs should stop configure, naming ARENA_PERF_GPUS (exit ${rc}):\n${log}")
endif()

# One GPU: nothing to split; perf gates hold it exclusively.
configure(1 -DARENA_PERF_GPUS=0)
if(NOT rc EQUAL 0 OR NOT log MATCHES "split needs 2 GPUs or more")
  fail("split with one GPU should configure as exclusive, saying so (exit ${rc}):\n${log}")
endif()
read_tests("${build}" tests)
resources_of("${tests}" "${task}/perf" type slots)
if(NOT type STREQUAL "gpus" OR NOT slots EQUAL 39)
  fail("with one GPU, ${task}/perf asks for ${slots} of '${type}', not all 39 units of its GPU (81559 MiB in 2 GiB units)")
endif()
message(STATUS "split: GPUs 0-1 run correctness gates, 2-3 time; ARENA_PERF_GPUS=4 refused; one GPU falls back to exclusive")
