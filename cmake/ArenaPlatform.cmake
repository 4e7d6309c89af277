# Chooses how .hip sources are compiled (one source, two vendors) and records the exact
# command in arena_toolchain.cmake, which compiles baselines, solutions and candidates alike.
#
# nvidia: nvcc compiles .hip as CUDA with HIP headers on the include path: the system's HIP
#         NVIDIA headers when they compile with this CUDA, else the project's own layer
#         (harness/include/hip_on_cuda).
# amd:    ROCm's hipcc (Debian's hipcc works without a GPU for the compile gates).
# none:   no kernel compiler at all: the host-only framework (spec checker, scorer, confinement,
#         agent runner) and its unit tests; no device backend, runners or gates.

if(NOT ARENA_HIP_PLATFORM STREQUAL "none")
  find_program(ARENA_NVCC nvcc HINTS "$ENV{CUDA_HOME}/bin" "$ENV{CUDA_PATH}/bin" /usr/local/cuda/bin)
  find_program(ARENA_HIPCC hipcc HINTS "$ENV{ROCM_PATH}/bin" /opt/rocm/bin)
  find_program(ARENA_NM NAMES nm llvm-nm)
  find_program(ARENA_READELF NAMES readelf llvm-readelf)
  find_program(ARENA_OBJDUMP NAMES objdump llvm-objdump)
  if(NOT ARENA_NM OR NOT ARENA_READELF OR NOT ARENA_OBJDUMP)
    message(FATAL_ERROR "nm, readelf and objdump (binutils) are needed for the compile gate's checks")
  endif()
endif()

include("${CMAKE_CURRENT_LIST_DIR}/ArenaPlatformDetect.cmake")
if(DEFINED KernelArena_PLATFORM)
  # The installed package: its runners and device backend were built for one platform.
  if(NOT ARENA_HIP_PLATFORM MATCHES "^(auto|${KernelArena_PLATFORM})$")
    message(FATAL_ERROR "ARENA_HIP_PLATFORM is '${ARENA_HIP_PLATFORM}' but the KernelArena package at "
                        "${KernelArena_DIR} was built for ${KernelArena_PLATFORM}: install one built for "
                        "${ARENA_HIP_PLATFORM} (configure KernelArena with -DARENA_HIP_PLATFORM=${ARENA_HIP_PLATFORM})")
  endif()
  set(ARENA_PLATFORM "${KernelArena_PLATFORM}")
  set(ARENA_PLATFORM_REASON "the KernelArena package, which was built for ${KernelArena_PLATFORM}")
elseif(ARENA_HIP_PLATFORM STREQUAL "auto")
  arena_detect_platform(ARENA_PLATFORM ARENA_PLATFORM_REASON)
  set(ARENA_PLATFORM_REASON "ARENA_HIP_PLATFORM=auto: ${ARENA_PLATFORM_REASON}")
elseif(ARENA_HIP_PLATFORM MATCHES "^(amd|nvidia|none)$")
  set(ARENA_PLATFORM "${ARENA_HIP_PLATFORM}")
  set(ARENA_PLATFORM_REASON "ARENA_HIP_PLATFORM=${ARENA_HIP_PLATFORM}")
else()
  message(FATAL_ERROR "ARENA_HIP_PLATFORM is '${ARENA_HIP_PLATFORM}': must be auto, amd, nvidia or none")
endif()
set_property(GLOBAL PROPERTY ARENA_PLATFORM "${ARENA_PLATFORM}")

# The headers kernels include (arena/arena_abi.h, and the HIP-on-CUDA layer): the source
# tree's harness/include, or the installed package's include/kernelarena (set by its config).
if(NOT ARENA_HARNESS_INCLUDE)
  get_filename_component(ARENA_HARNESS_INCLUDE "${CMAKE_CURRENT_LIST_DIR}/../harness/include" ABSOLUTE)
endif()
set(ARENA_HIP_ON_CUDA_INCLUDE "${ARENA_HARNESS_INCLUDE}/hip_on_cuda")

# Do the system's HIP NVIDIA headers compile with this nvcc? (Debian's HIP 5.x does not with CUDA 13.)
function(_arena_system_hip_works_with_nvcc out)
  find_path(_hip_inc hip/hip_runtime.h HINTS "$ENV{ROCM_PATH}/include" /opt/rocm/include)
  if(NOT _hip_inc)
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  set(_dir "${CMAKE_BINARY_DIR}/CMakeFiles/arena_hip_header_check")
  file(MAKE_DIRECTORY "${_dir}")
  file(WRITE "${_dir}/check.cu" "#include <hip/hip_runtime.h>\n__global__ void k(float* x){x[threadIdx.x]=1.f;}\n"
       "int main(){hipDeviceProp_t p; (void)hipGetDeviceProperties(&p,0); hipLaunchKernelGGL(k,1,1,0,0,nullptr); return 0;}\n")
  execute_process(COMMAND "${ARENA_NVCC}" -std=c++17 -D__HIP_PLATFORM_NVIDIA__ -I "${_hip_inc}" -c check.cu -o check.o
                  WORKING_DIRECTORY "${_dir}" RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
  if(_rc EQUAL 0)
    set(${out} "${_hip_inc}" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

if(ARENA_PLATFORM STREQUAL "nvidia")
  if(NOT ARENA_NVCC)
    message(FATAL_ERROR "ARENA_HIP_PLATFORM=nvidia needs nvcc (set ARENA_NVCC)")
  endif()
  if(NOT DEFINED CACHE{ARENA_SYSTEM_HIP_INCLUDE})
    _arena_system_hip_works_with_nvcc(_sys)
    set(ARENA_SYSTEM_HIP_INCLUDE "${_sys}" CACHE INTERNAL "System HIP headers usable with nvcc (empty: use our own)")
  endif()
  if(ARENA_SYSTEM_HIP_INCLUDE)
    set(ARENA_HIP_HEADERS "system (${ARENA_SYSTEM_HIP_INCLUDE})")
    set(_hip_inc -D__HIP_PLATFORM_NVIDIA__ -I${ARENA_SYSTEM_HIP_INCLUDE})
  else()
    set(ARENA_HIP_HEADERS "project HIP-on-CUDA layer")
    set(_hip_inc -I${ARENA_HIP_ON_CUDA_INCLUDE})
  endif()
  set(_arch_flags "")
  foreach(_a IN LISTS ARENA_CUDA_ARCHITECTURES)
    list(APPEND _arch_flags "--generate-code=arch=compute_${_a},code=[compute_${_a},sm_${_a}]")
  endforeach()
  set(ARENA_KERNEL_COMPILER "${ARENA_NVCC}")
  set(ARENA_KERNEL_FLAGS -std=c++17 -x cu -O3 -shared -Xcompiler=-fPIC -Xcompiler=-fvisibility=hidden
      -cudart=shared ${_arch_flags} ${_hip_inc} -I${ARENA_HARNESS_INCLUDE})
  get_filename_component(_cuda_bin "${ARENA_NVCC}" DIRECTORY)
  get_filename_component(ARENA_CUDA_ROOT "${_cuda_bin}" DIRECTORY)
  set(ARENA_PLATFORM_DESCRIPTION "nvidia (nvcc ${ARENA_NVCC}, ${ARENA_HIP_HEADERS}, sm ${ARENA_CUDA_ARCHITECTURES})")
elseif(ARENA_PLATFORM STREQUAL "none")
  set(ARENA_KERNEL_COMPILER "")
  set(ARENA_KERNEL_FLAGS "")
  set(ARENA_PLATFORM_DESCRIPTION "none (host only: the framework and its unit tests; no kernel compiler, no gates)")
else()
  if(NOT ARENA_HIPCC)
    message(FATAL_ERROR "ARENA_HIP_PLATFORM=amd needs hipcc (set ARENA_HIPCC)")
  endif()
  set(_arch_flags "")
  foreach(_a IN LISTS ARENA_AMD_ARCHITECTURES)
    list(APPEND _arch_flags "--offload-arch=${_a}")
  endforeach()
  set(ARENA_KERNEL_COMPILER "${ARENA_HIPCC}")
  set(ARENA_KERNEL_FLAGS -std=c++17 -O3 -fPIC -shared -fvisibility=hidden ${_arch_flags} -I${ARENA_HARNESS_INCLUDE})
  set(ARENA_PLATFORM_DESCRIPTION "amd (hipcc ${ARENA_HIPCC}, ${ARENA_AMD_ARCHITECTURES})")
endif()

# The one compile command for every kernel library; read by cmake/ArenaCompileKernel.cmake.
set(ARENA_TOOLCHAIN_FILE "${CMAKE_BINARY_DIR}/arena_toolchain.cmake")
if(NOT ARENA_CONFINE_TOOL)  # the installed package's config names its own
  set(ARENA_CONFINE_TOOL "${PROJECT_BINARY_DIR}/harness/arena-confine")
endif()
file(CONFIGURE OUTPUT "${ARENA_TOOLCHAIN_FILE}" CONTENT
"# Generated at configure time: how kernel libraries are compiled on this build.
set(ARENA_PLATFORM \"@ARENA_PLATFORM@\")
set(ARENA_KERNEL_COMPILER \"@ARENA_KERNEL_COMPILER@\")
set(ARENA_KERNEL_FLAGS \"@ARENA_KERNEL_FLAGS@\")
set(ARENA_NM \"@ARENA_NM@\")
set(ARENA_READELF \"@ARENA_READELF@\")
set(ARENA_OBJDUMP \"@ARENA_OBJDUMP@\")
# A candidate compiles confined (harness/tools/arena_confine.cpp): it may read the system's
# folders, the harness's public headers and its own copy, nothing of these folders.
set(ARENA_CONFINE_TOOL \"@ARENA_CONFINE_TOOL@\")
set(ARENA_PUBLIC_INCLUDE \"@ARENA_HARNESS_INCLUDE@\")
set(ARENA_PROTECTED_DIRS \"@CMAKE_SOURCE_DIR@;@CMAKE_BINARY_DIR@;@ARENA_TASKS_DIR@\")
" @ONLY)
message(STATUS "KernelArena platform: ${ARENA_PLATFORM_DESCRIPTION}")
message(STATUS "KernelArena platform chosen by ${ARENA_PLATFORM_REASON}")
set(ARENA_PLATFORM_REASON "${ARENA_PLATFORM_REASON}" CACHE INTERNAL "Why ARENA_PLATFORM was chosen")
# The gate functions read these wherever they are called (a project's folders do not see
# the variables of KernelArena's own folder when it is added with FetchContent).
foreach(_v ARENA_PLATFORM ARENA_TOOLCHAIN_FILE ARENA_HARNESS_INCLUDE)
  set_property(GLOBAL PROPERTY ${_v} "${${_v}}")
endforeach()
