# Included by harness/CMakeLists.txt on a GPU platform (nvidia, amd): the device backend,
# the judge's device-facing code, the workers and the runners.

# --- device backend: the only harness code built with the kernel toolchain -----------
set(ARENA_DEVICE_LIB "${CMAKE_CURRENT_BINARY_DIR}/libarena_device.so")
if(ARENA_PLATFORM STREQUAL "nvidia")
  set(_soname -Xlinker=-soname=libarena_device.so)
else()
  set(_soname -Wl,-soname,libarena_device.so)
endif()
# Same flags as kernels but default visibility (the backend exports its C API).
set(_backend_flags ${ARENA_KERNEL_FLAGS})
list(REMOVE_ITEM _backend_flags -Xcompiler=-fvisibility=hidden -fvisibility=hidden)
add_custom_command(
  OUTPUT "${ARENA_DEVICE_LIB}"
  COMMAND "${ARENA_KERNEL_COMPILER}" ${_backend_flags} -I${CMAKE_CURRENT_SOURCE_DIR}/src ${_soname}
          "${CMAKE_CURRENT_SOURCE_DIR}/device/backend.hip" -o "${ARENA_DEVICE_LIB}"
  DEPENDS device/backend.hip src/device_api.h "${ARENA_TOOLCHAIN_FILE}"
  COMMENT "Building the device backend (${ARENA_PLATFORM})" VERBATIM)
add_custom_target(arena_device_build DEPENDS "${ARENA_DEVICE_LIB}")
add_library(arena_device SHARED IMPORTED GLOBAL)
set_target_properties(arena_device PROPERTIES IMPORTED_LOCATION "${ARENA_DEVICE_LIB}" IMPORTED_SONAME libarena_device.so)
add_dependencies(arena_device arena_device_build)

# --- device-facing host code: buffers, the judge's sides and their worker processes -----
add_library(arena_run STATIC src/device.cpp src/launch.cpp src/tensors.cpp src/side.cpp src/gate_workers.cpp
            src/timed_checks.cpp src/device_download.cpp src/cache_sweep_device.cpp)
target_link_libraries(arena_run PUBLIC arena_core arena_device)
set_target_properties(arena_run PROPERTIES POSITION_INDEPENDENT_CODE ON)

# --- the worker: recording, replay and timing of kernels (docs/DESIGN.md, "Process model") -
# NVIDIA: the CUDA driver's graphs and modules record and replay launches, CUPTI times them.
# Elsewhere kernels run directly in their worker and events time them.
if(ARENA_PLATFORM STREQUAL "nvidia")
  set(_arena_cuda_root "${ARENA_CUDA_ROOT}")
  set(CUDAToolkit_ROOT "${_arena_cuda_root}")
  find_package(CUDAToolkit REQUIRED)
  set(_worker_platform src/nvidia/launch_capture_cuda.cpp src/nvidia/replay_cuda.cpp src/nvidia/gpu_trace_cupti.cpp)
  if(TARGET CUDA::cupti)
    set(_worker_platform_libs CUDA::cuda_driver CUDA::cupti)
  else()
    message(FATAL_ERROR "CUPTI (libcupti, cupti.h) not found under ${_arena_cuda_root}: the workers time kernels with it")
  endif()
else()
  set(_worker_platform src/portable/launch_replay_none.cpp src/portable/gpu_trace_none.cpp)
  set(_worker_platform_libs "")
endif()
add_library(arena_worker_core STATIC src/worker.cpp ${_worker_platform})
target_link_libraries(arena_worker_core PUBLIC arena_run arena_confine ${_worker_platform_libs})
set_target_properties(arena_worker_core PROPERTIES POSITION_INDEPENDENT_CODE ON)

add_executable(arena-worker tools/arena_worker.cpp)
target_link_libraries(arena-worker PRIVATE arena_worker_core)

add_executable(arena-correct tools/arena_correct.cpp tools/arena_correct_launch.cpp tools/arena_correct_oracle.cpp
               tools/arena_correct_inputs.cpp)
target_link_libraries(arena-correct PRIVATE arena_run GTest::gtest)
add_dependencies(arena-correct arena-worker)

# The perf engine's device-facing parts (its pure parts, statistics, stopping rule and
# plausibility checks, are in arena_core).
set(_perf_engine_sources src/perf_engine.cpp src/perf_post_timing.cpp src/perf_report.cpp)
add_executable(arena-perf tools/arena_perf.cpp ${_perf_engine_sources})
target_link_libraries(arena-perf PRIVATE arena_run benchmark::benchmark)
add_dependencies(arena-perf arena-worker)

# Degenerate-task filter: oracle checks on the CPU (constant, trivial or input-independent
# outputs) and launch-bound configurations from a perf result.
add_executable(arena-task-filter tools/arena_task_filter.cpp tools/task_filter_oracle.cpp tools/task_filter_fuzz.cpp)
target_link_libraries(arena-task-filter PRIVATE arena_run)

# One launch per side inside a profiler's capture range, and the report of what it recorded.
add_executable(arena-profile tools/arena_profile.cpp)
target_link_libraries(arena-profile PRIVATE arena_run)
# The same launches timed by the workers' clock (the activity trace), for comparing that clock
# with the profiler's: a tool of its own, since the tracer needs the GPU driver's library to
# load, and arena-profile must start (and skip) where there is none.
add_executable(arena-profile-trace tools/arena_profile.cpp)
target_compile_definitions(arena-profile-trace PRIVATE ARENA_PROFILE_TRACE)
target_link_libraries(arena-profile-trace PRIVATE arena_run arena_worker_core)

# The same runners as one shared library, for the Python host ("py:" kernels and oracles).
add_library(arena_tools SHARED tools/arena_tools_library.cpp tools/arena_correct.cpp tools/arena_correct_launch.cpp
            tools/arena_correct_oracle.cpp tools/arena_correct_inputs.cpp
            tools/arena_perf.cpp tools/arena_profile.cpp tools/arena_task_filter.cpp tools/task_filter_oracle.cpp
            tools/task_filter_fuzz.cpp
            ${_perf_engine_sources})
target_compile_definitions(arena_tools PRIVATE ARENA_TOOLS_LIBRARY)
target_link_libraries(arena_tools PRIVATE arena_run GTest::gtest benchmark::benchmark)
# The host process also holds PyTorch, whose libraries export their own instances of
# templates and third-party code (JSON, ...): the runners bind only to their own, and
# export nothing but the two entry points.
set_target_properties(arena_tools PROPERTIES CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
target_link_options(arena_tools PRIVATE -Wl,-Bsymbolic -Wl,--exclude-libs,ALL)

# The worker for Python workers: apart, because it needs the GPU driver and its tracer.
add_library(arena_worker_lib SHARED tools/arena_worker_library.cpp)
set_target_properties(arena_worker_lib PROPERTIES OUTPUT_NAME arena_worker CXX_VISIBILITY_PRESET hidden
                      VISIBILITY_INLINES_HIDDEN ON)
target_link_libraries(arena_worker_lib PRIVATE arena_worker_core)
target_link_options(arena_worker_lib PRIVATE -Wl,-Bsymbolic -Wl,--exclude-libs,ALL)

add_executable(arena-device-info tools/arena_device_info.cpp)
target_link_libraries(arena-device-info PRIVATE arena_run)

foreach(_exe arena-correct arena-perf arena-profile arena-device-info arena-task-filter arena-worker arena_tools
        arena_worker_lib)
  set_target_properties(${_exe} PROPERTIES BUILD_RPATH "${CMAKE_CURRENT_BINARY_DIR}")
endforeach()
