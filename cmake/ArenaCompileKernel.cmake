# cmake -P script: compiles one kernel library (baseline, solution or candidate) with the
# build's one kernel command, then checks what the library imports and exports against the
# kernel ABI's rules. Used by the project build (baselines) and by every compile gate, so
# candidates get exactly the baseline's flags.
#
#   cmake -DSOURCE=<file.hip> -DOUTPUT=<lib.so> -DTOOLCHAIN=<build>/arena_toolchain.cmake
#         [-DWHAT=<label for messages>] [-DRESULT=<result.json>] -P ArenaCompileKernel.cmake
cmake_minimum_required(VERSION 3.25)

foreach(_v SOURCE OUTPUT TOOLCHAIN)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "ArenaCompileKernel: -D${_v}=... is required")
  endif()
endforeach()
if(NOT DEFINED WHAT)
  set(WHAT "${SOURCE}")
endif()
include("${TOOLCHAIN}")

# A failure prints its reason first ("FAILED: <what>: <reason>"), then the details, and the
# script stops at its end (top level, so CMake adds no call stack).
set(_result_json "{}")
set(_arena_failed FALSE)
function(_arena_finish ok message_text)
  if(DEFINED RESULT)
    string(JSON _j SET "${_result_json}" "what" "\"${WHAT}\"")
    string(JSON _j SET "${_j}" "source" "\"${SOURCE}\"")
    if(ok)
      string(JSON _j SET "${_j}" "compiled" "true")
    else()
      string(JSON _j SET "${_j}" "compiled" "false")
    endif()
    string(REPLACE "\\" "\\\\" _m "${message_text}")
    string(REPLACE "\"" "\\\"" _m "${_m}")
    string(REPLACE "\n" "\\n" _m "${_m}")
    string(REPLACE "\t" " " _m "${_m}")
    string(JSON _j SET "${_j}" "message" "\"${_m}\"")
    string(JSON _j SET "${_j}" "platform" "\"${ARENA_PLATFORM}\"")
    get_filename_component(_dir "${RESULT}" DIRECTORY)
    file(MAKE_DIRECTORY "${_dir}")
    file(WRITE "${RESULT}.partial" "${_j}\n")
    file(RENAME "${RESULT}.partial" "${RESULT}")
  endif()
  if(NOT ok)
    message("FAILED: ${WHAT}: ${message_text}")
    set(_arena_failed TRUE PARENT_SCOPE)
  endif()
endfunction()

foreach(_once RANGE 0)  # one pass; a failure breaks out to the end of the script
if(NOT EXISTS "${SOURCE}")
  _arena_finish(FALSE "no source file at ${SOURCE}")
  break()
endif()

get_filename_component(_out_dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${_out_dir}")
set(_partial "${OUTPUT}.partial.so")
file(REMOVE "${_partial}" "${OUTPUT}")

string(TIMESTAMP _t0 "%s")
execute_process(
  COMMAND "${ARENA_KERNEL_COMPILER}" ${ARENA_KERNEL_FLAGS} "${SOURCE}" -o "${_partial}"
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err TIMEOUT 900)
string(TIMESTAMP _t1 "%s")
math(EXPR _secs "${_t1} - ${_t0}")
# ROCm's hipcc prints a harmless traceback when no AMD GPU can be enumerated; keep the log readable.
string(REGEX REPLACE "Traceback \\(most recent call last\\):.*FileNotFoundError:[^\n]*kfd[^\n]*\n?" "" _err "${_err}")
if(NOT _rc EQUAL 0)
  _arena_finish(FALSE "compilation failed (exit ${_rc}) after ${_secs} s: the compiler's output follows")
  message("${_out}${_err}")
  break()
endif()
if(_out OR _err)
  message("${_out}${_err}")
endif()

# --- what the library may import and export -------------------------------------------
set(_forbidden_imports
  "(cuda|hip)(Malloc|HostAlloc|HostMalloc|MallocManaged|MallocAsync|MallocFromPoolAsync|ExtMallocWithFlags|MemPoolCreate)"
  "cuMem(Alloc|Create|Map)"
  "(cuda|hip)(Stream|Event)(Create|Destroy)"
  "(cuda|hip)(Event(Record|ElapsedTime|Synchronize|Query)|StreamQuery|StreamWaitEvent|StreamAddCallback|LaunchHostFunc)"
  "(cuda|hip)(DeviceSynchronize|StreamSynchronize|ThreadSynchronize|CtxSynchronize|DeviceReset|SetDevice)"
  "(cuda|hip)(Memcpy|Memcpy2D|Memcpy3D|MemcpyPeer|Memset|Memset2D|MemcpyToSymbol|MemcpyFromSymbol)$"
  "(cuda|hip)(StreamBeginCapture|GraphLaunch|GraphInstantiate)"
  "(cuda|hip)(StreamSetAttribute|CtxResetPersistingL2Cache|DeviceSetLimit)"
  "^(pthread_create|fork|vfork|clone|clone3|posix_spawn|posix_spawnp|system|popen|execv|execve|execvp|execl|execlp)$"
  "_ZNSt6thread"
  "^(dlopen|dlmopen|dlsym|dlvsym)$"
  "^(cublas|cublasLt|cudnn|cufft|curand|cusparse|cusolver|rocblas|hipblas|hipblasLt|miopen|rocfft|hipfft|rocrand|hiprand|rocsparse|hipsparse|rocsolver|hipsolver)")
set(_allowed_needed "^(libcudart|libamdhip64|libc|libm|libstdc\\+\\+|libgcc_s|ld-linux-x86-64|libpthread|librt)\\.so")

execute_process(COMMAND "${ARENA_NM}" -D --undefined-only "${_partial}" OUTPUT_VARIABLE _imports RESULT_VARIABLE _rc1)
execute_process(COMMAND "${ARENA_NM}" -D --defined-only "${_partial}" OUTPUT_VARIABLE _exports RESULT_VARIABLE _rc2)
execute_process(COMMAND "${ARENA_READELF}" -d "${_partial}" OUTPUT_VARIABLE _dynamic RESULT_VARIABLE _rc3)
if(NOT (_rc1 EQUAL 0 AND _rc2 EQUAL 0 AND _rc3 EQUAL 0))
  _arena_finish(FALSE "could not read the library's symbols with nm/readelf")
  break()
endif()

set(_violations "")
string(REPLACE "\n" ";" _import_lines "${_imports}")
foreach(_line IN LISTS _import_lines)
  string(REGEX REPLACE "^ *U +" "" _sym "${_line}")
  string(REGEX REPLACE "@.*$" "" _sym "${_sym}")
  if(_sym STREQUAL "")
    continue()
  endif()
  foreach(_re IN LISTS _forbidden_imports)
    if(_sym MATCHES "${_re}")
      list(APPEND _violations "calls ${_sym} (the ABI forbids it: allocation, streams, events, synchronization, threads, dynamic loading and vendor libraries are off limits)")
      break()
    endif()
  endforeach()
endforeach()

set(_has_launch FALSE)
string(REPLACE "\n" ";" _export_lines "${_exports}")
foreach(_line IN LISTS _export_lines)
  string(REGEX MATCH "[^ ]+$" _sym "${_line}")
  string(REGEX REPLACE "@.*$" "" _sym "${_sym}")
  if(_sym STREQUAL "arena_launch")
    set(_has_launch TRUE)
  elseif(_sym MATCHES "^(cuda|hip|cu[A-Z]|nvrtc|hiprtc|pthread_|dl[a-z]|clock_gettime|gettimeofday)")
    list(APPEND _violations "exports ${_sym}, a runtime or system name (interposing the harness's calls is forbidden)")
  endif()
endforeach()
if(NOT _has_launch)
  list(APPEND _violations "does not export arena_launch (declare it with ARENA_EXPORT from arena/arena_abi.h)")
endif()

string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*\\[[^]]+\\]" _needed "${_dynamic}")
foreach(_n IN LISTS _needed)
  string(REGEX REPLACE ".*\\[(.*)\\]" "\\1" _lib "${_n}")
  if(NOT _lib MATCHES "${_allowed_needed}")
    list(APPEND _violations "links ${_lib} (only the GPU runtime and the C/C++ runtime may be linked)")
  endif()
endforeach()

if(_violations)
  list(JOIN _violations "\n  - " _text)
  file(REMOVE "${_partial}")
  _arena_finish(FALSE "breaks the kernel ABI rules:\n  - ${_text}")
  break()
endif()

file(RENAME "${_partial}" "${OUTPUT}")
message("${WHAT}: compiled in ${_secs} s -> ${OUTPUT}")
_arena_finish(TRUE "compiled in ${_secs} s")
endforeach()

if(_arena_failed)
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.29)
    cmake_language(EXIT 1)
  endif()
  message(FATAL_ERROR "${WHAT}: the compile gate failed (the reason is the first line of this output)")
endif()
