# ARENA_HIP_PLATFORM=auto: which platform kernels are built for, and why. Usable in script
# mode (cmake -P) too, so the choice can be tested with stand-in compilers.
#
#   arena_detect_platform(<platform var> <reason var>)
#
# Reads ARENA_NVCC and ARENA_HIPCC (compilers found, or empty), ARENA_NVIDIA_SMI (default:
# nvidia-smi on PATH) and ARENA_KFD_PATH (default /dev/kfd). In this order:
#   1. nvidia-smi lists a GPU and nvcc exists          -> nvidia
#   2. /dev/kfd exists (an AMD GPU) and hipcc exists   -> amd
#   3. no GPU visible: nvcc alone -> nvidia, hipcc alone -> amd, both -> nvidia (nvcc is
#      preferred; pass -DARENA_HIP_PLATFORM=amd for the other)
# With neither compiler it stops configure, saying what to install.
include_guard(GLOBAL)

# Gives arena_detect_platform's answer and returns from it (a macro: its return() leaves the
# function that calls it).
macro(_arena_platform_is platform reason)
  set(${platform_var} ${platform} PARENT_SCOPE)
  set(${reason_var} "${reason}" PARENT_SCOPE)
  return()
endmacro()

function(arena_detect_platform platform_var reason_var)
  if(NOT DEFINED ARENA_NVIDIA_SMI)
    find_program(ARENA_NVIDIA_SMI nvidia-smi)
  endif()
  if(NOT DEFINED ARENA_KFD_PATH)
    set(ARENA_KFD_PATH /dev/kfd)
  endif()
  set(_gpu_seen "")
  if(ARENA_NVIDIA_SMI)
    execute_process(COMMAND "${ARENA_NVIDIA_SMI}" -L OUTPUT_VARIABLE _gpus RESULT_VARIABLE _rc ERROR_QUIET)
    if(_rc EQUAL 0 AND _gpus MATCHES "GPU [0-9]")
      set(_gpu_seen nvidia)
      if(ARENA_NVCC)
        _arena_platform_is(nvidia "nvidia-smi lists an NVIDIA GPU and nvcc is at ${ARENA_NVCC}")
      endif()
    endif()
  endif()
  if(EXISTS "${ARENA_KFD_PATH}")
    set(_gpu_seen amd)
    if(ARENA_HIPCC)
      _arena_platform_is(amd "${ARENA_KFD_PATH} exists (an AMD GPU) and hipcc is at ${ARENA_HIPCC}")
    endif()
  endif()
  if(_gpu_seen)
    set(_prefix "an ${_gpu_seen} GPU is visible but its compiler is missing")
  else()
    set(_prefix "no GPU visible")
  endif()
  if(ARENA_NVCC AND ARENA_HIPCC)
    _arena_platform_is(nvidia
      "${_prefix}; both nvcc and hipcc found, nvcc is preferred (-DARENA_HIP_PLATFORM=amd picks hipcc)")
  elseif(ARENA_NVCC)
    _arena_platform_is(nvidia "${_prefix}; nvcc is the only kernel compiler found")
  elseif(ARENA_HIPCC)
    _arena_platform_is(amd "${_prefix}; hipcc is the only kernel compiler found")
  else()
    message(FATAL_ERROR "No kernel compiler found: install the CUDA toolkit (nvcc) or ROCm/Debian hipcc, "
                        "or point ARENA_NVCC / ARENA_HIPCC at one")
  endif()
endfunction()
