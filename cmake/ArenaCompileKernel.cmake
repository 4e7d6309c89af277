# cmake -P script: compiles one kernel library (baseline, solution or candidate) with the
# build's one kernel command, then checks what the library imports and exports against the
# kernel ABI's rules. Used by the project build (baselines) and by every compile gate, so
# candidates get exactly the baseline's flags.
#
#   cmake -DSOURCE=<file.hip> -DOUTPUT=<lib.so> -DTOOLCHAIN=<build>/arena_toolchain.cmake
#         [-DWHAT=<label for messages>] [-DRESULT=<result.json>] [-DCONFINE=ON] -P ArenaCompileKernel.cmake
#
# The source is compiled from a private copy, so a relative #include cannot reach the
# project's files; every file the compiler read is checked (only system headers and the
# harness's public headers); with CONFINE=ON (a candidate) the compiler itself runs confined
# (arena-confine: it cannot read the project's sources, tasks or build tree at all).
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
    # The compile gate's result in the schema of harness/common/result_schema.h (CompileResult).
    string(JSON _j SET "${_result_json}" "schema_version" 1)
    string(JSON _j SET "${_j}" "gate" "\"compile\"")
    string(JSON _j SET "${_j}" "what" "\"${WHAT}\"")
    string(JSON _j SET "${_j}" "source" "\"${SOURCE}\"")
    if(ok)
      string(JSON _j SET "${_j}" "compiled" "true")
      string(JSON _j SET "${_j}" "status" "\"passed\"")
    else()
      string(JSON _j SET "${_j}" "compiled" "false")
      string(JSON _j SET "${_j}" "status" "\"failed\"")
    endif()
    string(TIMESTAMP _now "%Y-%m-%dT%H:%M:%SZ" UTC)
    string(JSON _j SET "${_j}" "finished" "\"${_now}\"")
    string(REPLACE "\\" "\\\\" _m "${message_text}")
    string(REPLACE "\"" "\\\"" _m "${_m}")
    string(REPLACE "\n" "\\n" _m "${_m}")
    string(REPLACE "\t" " " _m "${_m}")
    string(JSON _j SET "${_j}" "message" "\"${_m}\"")
    string(JSON _j SET "${_j}" "platform" "\"${ARENA_PLATFORM}\"")
    if(_confinement MATCHES "^{")
      string(JSON _j SET "${_j}" "confinement" "${_confinement}")
    elseif(DEFINED _confinement)
      string(JSON _j SET "${_j}" "confinement" "\"${_confinement}\"")
    endif()
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

# Whether `path` lies in folder `dir` (a plain prefix test: paths may hold regex characters).
function(_arena_under path dir out)
  string(LENGTH "${dir}/" _n)
  string(LENGTH "${path}" _m)
  set(${out} FALSE PARENT_SCOPE)
  if(_m GREATER_EQUAL _n)
    string(SUBSTRING "${path}" 0 ${_n} _head)
    if(_head STREQUAL "${dir}/")
      set(${out} TRUE PARENT_SCOPE)
    endif()
  endif()
endfunction()

foreach(_once RANGE 0)  # one pass; a failure breaks out to the end of the script
if(ARENA_KERNEL_COMPILER STREQUAL "")
  _arena_finish(FALSE "no kernel compiler: this build was configured host only (ARENA_HIP_PLATFORM=none)")
  break()
endif()
if(NOT EXISTS "${SOURCE}")
  _arena_finish(FALSE "no source file at ${SOURCE}")
  break()
endif()

get_filename_component(_out_dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${_out_dir}")
file(REMOVE "${OUTPUT}")
string(RANDOM LENGTH 10 _nonce)
set(_work "${_out_dir}/.compile-${_nonce}")
file(REMOVE_RECURSE "${_work}")
file(MAKE_DIRECTORY "${_work}/tmp")
get_filename_component(_name "${SOURCE}" NAME)
file(COPY_FILE "${SOURCE}" "${_work}/${_name}")
set(_partial "${_work}/library.so")
set(_deps "${_work}/depends.d")

set(_compile "${ARENA_KERNEL_COMPILER}" ${ARENA_KERNEL_FLAGS} -MD -MF "${_deps}" "${_name}" -o "${_partial}")
set(_confinement "not confined (a trusted kernel)")
if(CONFINE)
  if(EXISTS "${ARENA_CONFINE_TOOL}")
    list(JOIN ARENA_PROTECTED_DIRS ":" _protect)
    set(_compile "${ARENA_CONFINE_TOOL}" --read "${_work}" --read "${ARENA_PUBLIC_INCLUDE}" --write "${_work}"
                 --protect "${_protect}" --report "${_work}/confinement.json" -- ${_compile})
  else()
    set(_confinement "not confined: ${ARENA_CONFINE_TOOL} is not built")
  endif()
endif()

string(TIMESTAMP _t0 "%s")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env "TMPDIR=${_work}/tmp" ${_compile}
  WORKING_DIRECTORY "${_work}"
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err TIMEOUT 900)
string(TIMESTAMP _t1 "%s")
math(EXPR _secs "${_t1} - ${_t0}")
if(EXISTS "${_work}/confinement.json")
  file(READ "${_work}/confinement.json" _confinement)
  string(STRIP "${_confinement}" _confinement)
endif()
# ROCm's hipcc prints a harmless traceback when no AMD GPU can be enumerated; keep the log readable.
string(REGEX REPLACE "Traceback \\(most recent call last\\):.*FileNotFoundError:[^\n]*kfd[^\n]*\n?" "" _err "${_err}")
# Messages name the candidate's own file, not the private copy.
string(REPLACE "${_work}/" "" _out "${_out}")
string(REPLACE "${_work}/" "" _err "${_err}")
if(NOT _rc EQUAL 0)
  file(REMOVE_RECURSE "${_work}")
  _arena_finish(FALSE "compilation failed (exit ${_rc}) after ${_secs} s: the compiler's output follows")
  message("${_out}${_err}")
  break()
endif()
if(_out OR _err)
  message("${_out}${_err}")
endif()

# --- every file the compiler read ---------------------------------------------------------
set(_include_violations "")
if(EXISTS "${_deps}")
  file(READ "${_deps}" _dep_text)
  string(REPLACE "\\\n" " " _dep_text "${_dep_text}")
  string(REGEX REPLACE "^[^:]*:" "" _dep_text "${_dep_text}")
  string(REGEX REPLACE "[ \t\n]+" ";" _dep_list "${_dep_text}")
  foreach(_dep IN LISTS _dep_list)
    if(_dep STREQUAL "" OR _dep STREQUAL "${_name}")
      continue()
    endif()
    get_filename_component(_real "${_dep}" REALPATH BASE_DIR "${_work}")
    _arena_under("${_real}" "${_work}" _in_work)
    _arena_under("${_real}" "${ARENA_PUBLIC_INCLUDE}" _in_public)
    if(_in_work OR _in_public)
      continue()
    endif()
    foreach(_p IN LISTS ARENA_PROTECTED_DIRS)
      if(_p STREQUAL "")
        continue()
      endif()
      _arena_under("${_real}" "${_p}" _in_protected)
      if(_in_protected)
        list(APPEND _include_violations "includes ${_dep} (only system headers and the harness's public headers under ${ARENA_PUBLIC_INCLUDE} may be included)")
        break()
      endif()
    endforeach()
  endforeach()
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
  "^(dlopen|dlmopen|dlsym|dlvsym|dladdr|dladdr1|dlinfo|dl_iterate_phdr)$"
  "^(cuGetProcAddress|cuGetProcAddress_v2|cudaGetDriverEntryPoint|cudaGetDriverEntryPointByVersion|hipGetProcAddress)$"
  "^(cu|cuda|hip)(Library|Module)(Load|LoadData|LoadFatBinary|GetFunction|GetKernel|LaunchKernel)"
  "^(cuda|hip)Ipc"
  "^(syscall|mprotect|pkey_mprotect|ptrace|process_vm_readv|process_vm_writev|prctl|personality)$"
  "^(open|open64|openat|openat64|fopen|fopen64|freopen|freopen64|creat|creat64|opendir|readlink|readlinkat|stat|stat64|lstat|fstatat)$"
  "^(getenv|secure_getenv)$"
  "^(_exit|_Exit|quick_exit|atexit|at_quick_exit|kill|tgkill|raise|signal|sigaction)$"
  "^(socket|connect|bind|listen|accept|accept4)$"
  "^_?Py[A-Za-z_]"
  "^(cublas|cublasLt|cudnn|cufft|curand|cusparse|cusolver|rocblas|hipblas|hipblasLt|miopen|rocfft|hipfft|rocrand|hiprand|rocsparse|hipsparse|rocsolver|hipsolver)")
set(_allowed_needed "^(libcudart|libamdhip64|libc|libm|libstdc\\+\\+|libgcc_s|ld-linux-x86-64|libpthread|librt)\\.so")

execute_process(COMMAND "${ARENA_NM}" -D --undefined-only "${_partial}" OUTPUT_VARIABLE _imports RESULT_VARIABLE _rc1)
execute_process(COMMAND "${ARENA_NM}" -D --defined-only "${_partial}" OUTPUT_VARIABLE _exports RESULT_VARIABLE _rc2)
execute_process(COMMAND "${ARENA_READELF}" -d "${_partial}" OUTPUT_VARIABLE _dynamic RESULT_VARIABLE _rc3)
if(NOT (_rc1 EQUAL 0 AND _rc2 EQUAL 0 AND _rc3 EQUAL 0))
  file(REMOVE_RECURSE "${_work}")
  _arena_finish(FALSE "could not read the library's symbols with nm/readelf")
  break()
endif()

set(_violations ${_include_violations})
string(REPLACE "\n" ";" _import_lines "${_imports}")
foreach(_line IN LISTS _import_lines)
  string(REGEX REPLACE "^ *U +" "" _sym "${_line}")
  string(REGEX REPLACE "@.*$" "" _sym "${_sym}")
  if(_sym STREQUAL "")
    continue()
  endif()
  foreach(_re IN LISTS _forbidden_imports)
    if(_sym MATCHES "${_re}")
      list(APPEND _violations "calls ${_sym} (the ABI forbids it: allocation, streams, events, synchronization, threads, processes, dynamic loading, files, the environment, system calls, other libraries and interpreters are off limits)")
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

# Host code that makes system calls itself, or names process information to read.
execute_process(COMMAND "${ARENA_OBJDUMP}" -d --no-show-raw-insn "${_partial}" OUTPUT_VARIABLE _asm RESULT_VARIABLE _rc4 ERROR_QUIET)
if(_rc4 EQUAL 0 AND _asm MATCHES "[ \t](syscall|sysenter|int +\\$0x80)[ \t\n]")
  list(APPEND _violations "executes a system call instruction itself (the ABI forbids system calls)")
endif()
file(STRINGS "${_partial}" _proc_strings REGEX "/proc/|/dev/shm|/sys/")
if(_proc_strings)
  list(GET _proc_strings 0 _first)
  string(STRIP "${_first}" _first)
  list(APPEND _violations "holds the path '${_first}' (reading process or system information is not allowed)")
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
  file(REMOVE_RECURSE "${_work}")
  _arena_finish(FALSE "breaks the kernel ABI rules:\n  - ${_text}")
  break()
endif()

file(RENAME "${_partial}" "${OUTPUT}")
file(REMOVE_RECURSE "${_work}")
message("${WHAT}: compiled in ${_secs} s -> ${OUTPUT}")
_arena_finish(TRUE "compiled in ${_secs} s")
endforeach()

if(_arena_failed)
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.29)
    cmake_language(EXIT 1)
  endif()
  message(FATAL_ERROR "${WHAT}: the compile gate failed (the reason is the first line of this output)")
endif()
