# Task -> CTest family generation (docs/DESIGN.md, "Pipeline"). The public functions, for this
# project's own suites and for any project that uses KernelArena (docs/package.md):
#
#   arena_add_task(NAME <name> SUITE <suite> SPEC <task.json> REFERENCE <oracle>
#                  [BASELINE <kernel>] [CANDIDATE <kernel>] [SOLUTION <kernel>]
#                  [README <statement.md>] [PROMPT <prompt.md>] [LABELS <label>...]
#                  [REFERENCE_LIBRARIES <target>...])
#   arena_add_suite_directory(<dir> [SUITE <suite>] [LABELS <label>...])
#
# Each task.json is validated by arena-spec (the harness's own spec loader), which writes a
# manifest; its suite's descriptor (suites/<suite>/suite.cmake, cmake/ArenaSuite.cmake) says
# how its kernels are built and judged; each task then gets its kernel libraries and gates:
#
#   <suite>/<task>/compile         compiles the candidate            sets up   <id>/compiled
#   <suite>/<task>/correct_seen    candidate vs oracle, seen configs needs compiled, sets up <id>/correct
#   <suite>/<task>/correct_unseen  unseen + generated configs         needs compiled, sets up <id>/correct
#   <suite>/<task>/perf            baseline vs candidate timing       needs compiled + correct
#
# plus <id>/agent (ARENA_AGENT), <id>/profile (ARENA_PROFILE) and selftest/<id>/... (ARENA_SELFTEST).
include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/ArenaOptions.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/ArenaTaskFilter.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/ArenaSuite.cmake")

set(ARENA_GATE_RESULTS_DIR "${CMAKE_BINARY_DIR}/arena/results")
set(ARENA_KERNELS_DIR "${CMAKE_BINARY_DIR}/arena/kernels")
set(ARENA_COMPILE_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/ArenaCompileKernel.cmake")

# Where the harness's data lives: the source tree, or the installed package's
# share/KernelArena (its config sets ARENA_DATA_DIR before including this file).
if(NOT ARENA_DATA_DIR)
  get_filename_component(ARENA_DATA_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
  set(ARENA_PY_HOST_DIR "${ARENA_DATA_DIR}/harness/python")
  set(ARENA_PROFILE_SCRIPT "${ARENA_DATA_DIR}/harness/tools/arena-profile.sh")
else()
  set(ARENA_PY_HOST_DIR "${ARENA_DATA_DIR}/python")
  set(ARENA_PROFILE_SCRIPT "${ARENA_DATA_DIR}/tools/arena-profile.sh")
endif()
set(ARENA_AGENTS_DIR "${ARENA_DATA_DIR}/agents")
set(_ARENA_GLOBALS ARENA_DATA_DIR ARENA_PY_HOST_DIR ARENA_PROFILE_SCRIPT ARENA_AGENTS_DIR
    ARENA_GATE_RESULTS_DIR ARENA_KERNELS_DIR ARENA_COMPILE_SCRIPT)
foreach(_v IN LISTS _ARENA_GLOBALS)
  set_property(GLOBAL PROPERTY ${_v} "${${_v}}")
endforeach()
set_property(GLOBAL PROPERTY _ARENA_GLOBALS ${_ARENA_GLOBALS} ARENA_PLATFORM ARENA_TOOLCHAIN_FILE ARENA_HARNESS_INCLUDE)

# The public functions may be called from any folder of a project, which need not see the
# variables set where KernelArena was found or added: they read them from global properties.
macro(_arena_load_globals)
  get_property(_arena_globals GLOBAL PROPERTY _ARENA_GLOBALS)
  foreach(_arena_g IN LISTS _arena_globals)
    get_property(${_arena_g} GLOBAL PROPERTY ${_arena_g})
  endforeach()
endmacro()

if(ARENA_FUZZ_SEED STREQUAL "")
  string(RANDOM LENGTH 9 ALPHABET "0123456789" _seed)
  string(REGEX REPLACE "^0+" "" _seed "1${_seed}")
  set(ARENA_FUZZ_SEED "${_seed}" CACHE STRING
      "Seed for generated unseen configurations (empty: drawn once at first configure)" FORCE)
endif()

# Relative candidate folders are taken from where cmake was run (the shell's PWD), else
# from the build folder.
function(_arena_absolute_candidate out)
  set(_c "${ARENA_CANDIDATE}")
  if(_c STREQUAL "" OR _c MATCHES "^(baseline|solution)$" OR IS_ABSOLUTE "${_c}")
    set(${out} "${_c}" PARENT_SCOPE)
    return()
  endif()
  if(NOT "$ENV{PWD}" STREQUAL "" AND EXISTS "$ENV{PWD}/${_c}")
    get_filename_component(_c "$ENV{PWD}/${_c}" ABSOLUTE)
  else()
    get_filename_component(_c "${_c}" ABSOLUTE BASE_DIR "${CMAKE_BINARY_DIR}")
  endif()
  set(${out} "${_c}" PARENT_SCOPE)
endfunction()

# The settings a mistake in which would otherwise show only after a full build or a whole
# suite run: checked at once, each with a one-line reason. Called early by this project's
# own CMakeLists.txt and by the first arena_add_task of any project.
function(arena_check_settings)
  _arena_load_globals()
  get_property(_agents_dir GLOBAL PROPERTY ARENA_AGENTS_DIR)
  if(ARENA_AGENT AND NOT EXISTS "${_agents_dir}/${ARENA_AGENT}/adapter.cmake")
    file(GLOB _adapters RELATIVE "${_agents_dir}" "${_agents_dir}/*/adapter.cmake")
    list(TRANSFORM _adapters REPLACE "/adapter.cmake$" "")
    list(JOIN _adapters ", " _list)
    arena_stop("ARENA_AGENT is '${ARENA_AGENT}': no such agent adapter (there are: ${_list})")
  endif()
  if(NOT ARENA_CANDIDATE_FALLBACK MATCHES "^(none|baseline)$")
    arena_stop("ARENA_CANDIDATE_FALLBACK is '${ARENA_CANDIDATE_FALLBACK}': must be none or baseline")
  endif()
  if(ARENA_AGENT AND NOT ARENA_CANDIDATE MATCHES "^(|baseline)$")
    arena_stop("ARENA_CANDIDATE is '${ARENA_CANDIDATE}' but ARENA_AGENT is '${ARENA_AGENT}': the agent "
               "writes the candidates, so '${ARENA_CANDIDATE}' would not be judged: set one of them only "
               "(-DARENA_CANDIDATE= or -DARENA_AGENT=)")
  endif()
  _arena_absolute_candidate(_c)
  if(NOT _c MATCHES "^(|baseline|solution)$" AND NOT IS_DIRECTORY "${_c}")
    arena_stop("ARENA_CANDIDATE is '${ARENA_CANDIDATE}': not baseline, solution or an existing folder "
               "(looked for ${_c})")
  endif()
  foreach(_n ARENA_PERF_BUDGET_S ARENA_PERF_SLOTS ARENA_AGENT_TIMEOUT_S ARENA_FLUSH_BYTES ARENA_ORACLE_CACHE_GB
             ARENA_GPU_MEMORY_UNIT_GB ARENA_PERF_GPUS)
    if(NOT "${${_n}}" MATCHES "^[0-9]+$" AND NOT (_n STREQUAL "ARENA_ORACLE_CACHE_GB" AND "${${_n}}" STREQUAL "auto"))
      set(_or "")
      if(_n STREQUAL "ARENA_ORACLE_CACHE_GB")
        set(_or " or auto")
      endif()
      arena_stop("${_n} is '${${_n}}': must be a whole number${_or}")
    endif()
  endforeach()
  if(ARENA_PERF_SLOTS LESS 1)
    arena_stop("ARENA_PERF_SLOTS is '${ARENA_PERF_SLOTS}': a GPU needs at least one slot")
  endif()
  if(ARENA_GPU_MEMORY_UNIT_GB LESS 1)
    arena_stop("ARENA_GPU_MEMORY_UNIT_GB is '${ARENA_GPU_MEMORY_UNIT_GB}': a unit of GPU memory is at least 1 GiB")
  endif()
  if(NOT ARENA_HOST_THREADS MATCHES "^([1-9][0-9]*|)$")
    arena_stop("ARENA_HOST_THREADS is '${ARENA_HOST_THREADS}': a whole number of host threads per correctness gate, or empty (the cores / (ARENA_PERF_SLOTS x GPUs))")
  endif()
  if(NOT ARENA_GPU_MEMORY_GB MATCHES "^([1-9][0-9]*|)$")
    arena_stop("ARENA_GPU_MEMORY_GB is '${ARENA_GPU_MEMORY_GB}': a whole number of GiB per GPU, or empty (ask nvidia-smi/rocm-smi)")
  endif()
  if(NOT ARENA_PERF_SCHEDULE MATCHES "^(exclusive|split|shared|serial)$")
    arena_stop("ARENA_PERF_SCHEDULE is '${ARENA_PERF_SCHEDULE}': must be exclusive, split, shared or serial")
  endif()
endfunction()

# The configure-time spec checker: the installed package's arena-spec, or (in the source
# tree, where nothing is built yet) one built on the spot from the harness's own loader.
function(_arena_spec_tool out)
  get_property(_exe GLOBAL PROPERTY ARENA_SPEC_CHECKER)
  if(_exe)
    set(${out} "${_exe}" PARENT_SCOPE)
    return()
  endif()
  if(TARGET KernelArena::arena-spec)
    get_target_property(_imported KernelArena::arena-spec IMPORTED)
    if(_imported)
      get_target_property(_exe KernelArena::arena-spec LOCATION)
      set_property(GLOBAL PROPERTY ARENA_SPEC_CHECKER "${_exe}")
      set(${out} "${_exe}" PARENT_SCOPE)
      return()
    endif()
  endif()
  get_property(_root GLOBAL PROPERTY ARENA_DATA_DIR)
  set(_src_dir "${_root}/harness/src")
  # fuzz.cpp draws the generated configurations (and needs inputs.cpp's hash and Random123),
  # gate_memory.cpp estimates each correctness gate's device memory from them.
  set(_sources "${_root}/harness/tools/arena_spec.cpp" "${_src_dir}/task_spec.cpp" "${_src_dir}/task_spec_fields.cpp"
               "${_src_dir}/task_spec_bindings.cpp" "${_src_dir}/task_spec_read.cpp"
               "${_src_dir}/expr.cpp" "${_src_dir}/dtype.cpp" "${_src_dir}/fuzz.cpp" "${_src_dir}/inputs.cpp"
               "${_src_dir}/parallel_host.cpp" "${_src_dir}/host_pool.cpp" "${_src_dir}/compare.cpp"
               "${_src_dir}/gate_memory.cpp")
  set(_exe "${CMAKE_BINARY_DIR}/CMakeFiles/arena-spec-configure")
  set(_stale FALSE)
  if(NOT EXISTS "${_exe}")
    set(_stale TRUE)
  endif()
  file(GLOB _headers "${_src_dir}/*.h")
  foreach(_f IN LISTS _sources _headers)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_f}")
    if("${_f}" IS_NEWER_THAN "${_exe}")
      set(_stale TRUE)
    endif()
  endforeach()
  if(_stale)
    get_property(_json_inc GLOBAL PROPERTY ARENA_JSON_INCLUDE_DIRS)
    set(_inc_flags "")
    foreach(_d IN LISTS _json_inc)
      list(APPEND _inc_flags "-I${_d}")
    endforeach()
    message(STATUS "Building the task spec checker")
    # Random123's folder, unless it is the compiler's own (-isystem /usr/include breaks #include_next).
    if(ARENA_RANDOM123_INCLUDE_DIR AND NOT ARENA_RANDOM123_INCLUDE_DIR MATCHES "^/usr(/local)?/include/?$")
      list(APPEND _inc_flags "-I${ARENA_RANDOM123_INCLUDE_DIR}")
    endif()
    execute_process(COMMAND "${CMAKE_CXX_COMPILER}" -std=c++17 -O1 -I "${_src_dir}" ${_inc_flags}
                            ${_sources} -pthread -o "${_exe}"
                    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "Could not build the task spec checker:\n${_out}${_err}")
    endif()
  endif()
  set_property(GLOBAL PROPERTY ARENA_SPEC_CHECKER "${_exe}")
  set(${out} "${_exe}" PARENT_SCOPE)
endfunction()

# Validates task.json files with arena-spec and includes the manifest it writes (in the
# caller's scope: ARENA_TASK_IDS and ARENA_TASK_<suite>__<name>_* for each task). Every invalid
# spec is reported, each as "file: field: what".
# With _arena_keep_going set (a suite folder), an invalid spec does not stop configure: the
# manifest lists it (ARENA_INVALID_TASK_FILES) and the caller adds a failing test for it.
macro(_arena_read_manifest manifest)
  _arena_spec_tool(_arena_checker)
  set(_arena_flags --any-folder --fuzz-seed "${ARENA_FUZZ_SEED}")  # the unseen gates' memory estimates
  if(_arena_keep_going)
    list(APPEND _arena_flags --keep-going)
  endif()
  execute_process(COMMAND "${_arena_checker}" manifest ${_arena_flags} "${manifest}" ${ARGN}
                  RESULT_VARIABLE _arena_rc OUTPUT_VARIABLE _arena_out ERROR_VARIABLE _arena_err)
  if(NOT _arena_rc EQUAL 0)
    # Plain message() keeps each "file: field: what" on one line (FATAL_ERROR text is re-wrapped).
    message("${_arena_err}${_arena_out}")
    message(FATAL_ERROR "Invalid task spec (above): fix the file and field it names")
  endif()
  include("${manifest}")
endmacro()

# One bad task must not stop the others: each invalid spec of a suite folder is named in a
# warning, and <suite>/<task>/compile, its only test, fails with the same message (arena-spec
# check), so a run keeps the task in its counts as not compiled.
function(_arena_add_invalid_task_tests suite)
  _arena_spec_tool(_checker)
  set(_i 0)
  foreach(_file IN LISTS ARENA_INVALID_TASK_FILES)
    get_filename_component(_dir "${_file}" DIRECTORY)
    get_filename_component(_task "${_dir}" NAME)
    set(_suite "${suite}")
    if(NOT _suite)
      get_filename_component(_suite_dir "${_dir}" DIRECTORY)
      get_filename_component(_suite "${_suite_dir}" NAME)
    endif()
    message(WARNING "${ARENA_INVALID_TASK_ERROR_${_i}}\n"
                    "${_suite}/${_task}: its gates are left out; ${_suite}/${_task}/compile fails with this message")
    add_test(NAME ${_suite}/${_task}/compile COMMAND "${_checker}" check "${_file}")
    set_tests_properties(${_suite}/${_task}/compile PROPERTIES LABELS "${_suite};compile" TIMEOUT 60)
    math(EXPR _i "${_i} + 1")
  endforeach()
endfunction()

# The same for a spec that loads but that its suite's descriptor refuses (<problem>).
function(_arena_add_refused_task_test id problem)
  _arena_load_globals()
  string(REPLACE "/" ";" _parts "${id}")
  list(GET _parts 0 _suite)
  set(_script "${ARENA_KERNELS_DIR}/${id}/refused.cmake")
  file(WRITE "${_script}" "message(FATAL_ERROR [==[${problem}]==])\n")
  message(WARNING "${problem}\n${id}: its gates are left out; ${id}/compile fails with this message")
  add_test(NAME ${id}/compile COMMAND "${CMAKE_COMMAND}" -P "${_script}")
  set_tests_properties(${id}/compile PROPERTIES LABELS "${_suite};compile" TIMEOUT 60)
endfunction()

# `start` is what an agent starts from (the descriptor's START): the baseline, an ABI skeleton or a task file.
# Sets <out> to the candidate's source and <fallback_out> to TRUE where a missing file falls
# back to the baseline (ARENA_CANDIDATE_FALLBACK=baseline); records missing files for the
# end-of-configure summary.
function(_arena_candidate_source key start out fallback_out)
  set(${fallback_out} FALSE PARENT_SCOPE)
  _arena_absolute_candidate(_cand)
  if(_cand STREQUAL "" AND _task_candidate)
    set(${out} "${_task_candidate}" PARENT_SCOPE)
    return()
  elseif(_cand MATCHES "^(|baseline)$")
    set(${out} "${start}" PARENT_SCOPE)
    return()
  elseif(_cand STREQUAL "solution")
    set(_file "${_task_solution}")
  else()
    set(_file "${_cand}/${${key}_SUITE}/${${key}_NAME}/${${key}_CANDIDATE_FILE}")
  endif()
  if(_file STREQUAL "" OR NOT EXISTS "${_file}")
    set_property(GLOBAL APPEND PROPERTY ARENA_CANDIDATE_MISSING "${${key}_SUITE}/${${key}_NAME}")
    if(ARENA_CANDIDATE_FALLBACK STREQUAL "baseline")
      set(_file "${start}")
      set(${fallback_out} TRUE PARENT_SCOPE)
    elseif(_file STREQUAL "")
      set(_file "${_cand}: ${${key}_SUITE}/${${key}_NAME} has no SOLUTION")
    endif()
  endif()
  set(${out} "${_file}" PARENT_SCOPE)
endfunction()

# GPU memory as resource units (docs/DESIGN.md, "Scheduling"), worked out once per configure:
#   ARENA_GPU_COUNT  GPUs in the spec (at least 1: with none seen GPU gates skip, the spec stays valid)
#   ARENA_GPU_UNITS  units of type gpus on every GPU: floor(memory / ARENA_GPU_MEMORY_UNIT_GB) of
#                    the smallest GPU, so any request fits any GPU; ARENA_PERF_SLOTS where no
#                    GPU memory is known (one unit per correctness gate, as before)
#   ARENA_GPU_SHARE  the fewest units a correctness gate takes: ceil(units / ARENA_PERF_SLOTS),
#                    so that no more than ARENA_PERF_SLOTS of them share a GPU (host cores)
#   ARENA_GATE_HOST_THREADS  a correctness gate's share of the host's logical cores:
#                    cores / (ARENA_PERF_SLOTS x GPUs), at least 1 (ARENA_HOST_THREADS overrides)
#   ARENA_TIMED_HOST_THREADS a timed gate's (one per GPU at most): cores / GPUs, at least 1
# Also kept in the cache (internal), for scripts that write a spec of their own (arena-shard.sbatch).
function(_arena_gpu_units)
  get_property(_units GLOBAL PROPERTY ARENA_GPU_UNITS)
  if(_units)
    return()
  endif()
  get_property(_platform GLOBAL PROPERTY ARENA_PLATFORM)
  if(ARENA_GPU_MEMORY_GB)
    arena_count_gpus("${_platform}" _count)
    math(EXPR _mib "${ARENA_GPU_MEMORY_GB} * 1024")
    set(_mibs ${_mib})
  else()
    arena_gpu_memory_mib("${_platform}" _mibs)
    list(LENGTH _mibs _count)
  endif()
  if(_count LESS 1)
    set(_count 1)
  endif()
  math(EXPR _unit_mib "${ARENA_GPU_MEMORY_UNIT_GB} * 1024")
  set(_units "")
  foreach(_mib IN LISTS _mibs)
    math(EXPR _u "${_mib} / ${_unit_mib}")
    if(_units STREQUAL "" OR _u LESS _units)
      set(_units ${_u})
    endif()
  endforeach()
  if(_units STREQUAL "")
    set(_units ${ARENA_PERF_SLOTS})
  elseif(_units LESS 1)
    set(_units 1)
  endif()
  math(EXPR _share "(${_units} + ${ARENA_PERF_SLOTS} - 1) / ${ARENA_PERF_SLOTS}")
  cmake_host_system_information(RESULT _cores QUERY NUMBER_OF_LOGICAL_CORES)
  math(EXPR _gate_threads "${_cores} / (${ARENA_PERF_SLOTS} * ${_count})")
  math(EXPR _timed_threads "${_cores} / ${_count}")
  if(ARENA_HOST_THREADS)
    set(_gate_threads ${ARENA_HOST_THREADS})
  elseif(_gate_threads LESS 1)
    set(_gate_threads 1)
  endif()
  if(_timed_threads LESS 1)
    set(_timed_threads 1)
  endif()
  set_property(GLOBAL PROPERTY ARENA_GATE_HOST_THREADS ${_gate_threads})
  set_property(GLOBAL PROPERTY ARENA_TIMED_HOST_THREADS ${_timed_threads})
  set_property(GLOBAL PROPERTY ARENA_GPU_COUNT ${_count})
  set_property(GLOBAL PROPERTY ARENA_GPU_UNITS ${_units})
  set_property(GLOBAL PROPERTY ARENA_GPU_SHARE ${_share})
  set(ARENA_GPU_UNITS ${_units} CACHE INTERNAL "Units of GPU memory per GPU in arena_resources.json")
  set(ARENA_GPU_SHARE ${_share} CACHE INTERNAL "Fewest units a correctness gate asks for")
endfunction()

# A GPU gate's environment (docs/DESIGN.md, "Scheduling"): ARENA_HOST_THREADS, the host threads
# it may use (TIMED: a timed gate's, it holds a GPU; else a correctness gate's share), and under
# ARENA_PERF_SCHEDULE=shared ARENA_GPU_LOCK_DIR, the folder of the locks by which a perf gate
# times only while no correctness gate works on its GPU (harness/src/gpu_lock.h).
function(_arena_gate_environment test)
  cmake_parse_arguments(PARSE_ARGV 1 H "TIMED" "" "")
  _arena_gpu_units()
  if(H_TIMED)
    get_property(_n GLOBAL PROPERTY ARENA_TIMED_HOST_THREADS)
  else()
    get_property(_n GLOBAL PROPERTY ARENA_GATE_HOST_THREADS)
  endif()
  set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "ARENA_HOST_THREADS=${_n}")
  _arena_perf_schedule()
  get_property(_schedule GLOBAL PROPERTY ARENA_PERF_SCHEDULE_USED)
  if(_schedule STREQUAL "shared")
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "ARENA_GPU_LOCK_DIR=${CMAKE_BINARY_DIR}/arena/gpu_locks")
  endif()
endfunction()

# The RESOURCE_GROUPS of a correctness gate whose peak device memory is estimated at `bytes`
# (arena-spec's manifest): the units that hold it, at least ARENA_GPU_SHARE, at most a GPU.
function(_arena_correct_resources bytes out)
  _arena_gpu_units()
  get_property(_units GLOBAL PROPERTY ARENA_GPU_UNITS)
  get_property(_share GLOBAL PROPERTY ARENA_GPU_SHARE)
  math(EXPR _unit_bytes "${ARENA_GPU_MEMORY_UNIT_GB} * 1073741824")
  math(EXPR _n "(${bytes} + ${_unit_bytes} - 1) / ${_unit_bytes}")
  if(_n LESS _share)
    set(_n ${_share})
  endif()
  if(_n GREATER _units)
    set(_n ${_units})
  endif()
  set(${out} "gpus:${_n}" PARENT_SCOPE)
endfunction()

# The schedule perf gates run under: ARENA_PERF_SCHEDULE, except that split needs two GPUs
# (one to time on, one for correctness) and becomes exclusive, saying so, with fewer. For split
# also the first GPU that times (ARENA_PERF_FIRST_GPU): GPUs from it on time, those before it
# run correctness gates.
function(_arena_perf_schedule)
  get_property(_schedule GLOBAL PROPERTY ARENA_PERF_SCHEDULE_USED)
  if(_schedule)
    return()
  endif()
  _arena_gpu_units()
  get_property(_count GLOBAL PROPERTY ARENA_GPU_COUNT)
  set(_schedule "${ARENA_PERF_SCHEDULE}")
  if(_schedule STREQUAL "split")
    set(_perf ${ARENA_PERF_GPUS})
    if(_perf EQUAL 0)
      math(EXPR _perf "${_count} / 2")
    endif()
    if(_count LESS 2)
      message(STATUS "KernelArena: ARENA_PERF_SCHEDULE=split needs 2 GPUs or more (${_count} here): perf gates hold their GPU exclusively")
      set(_schedule exclusive)
    elseif(_perf GREATER_EQUAL _count)
      arena_stop("ARENA_PERF_GPUS is ${ARENA_PERF_GPUS}: with ${_count} GPUs, at most ${_count} - 1 may time perf gates (one must run correctness gates)")
    else()
      math(EXPR _first "${_count} - ${_perf}")
      math(EXPR _last "${_count} - 1")
      set_property(GLOBAL PROPERTY ARENA_PERF_FIRST_GPU ${_first})
      message(STATUS "KernelArena: perf gates time on GPUs ${_first} to ${_last}, correctness gates run on GPUs 0 to ${_first} less one (ARENA_PERF_SCHEDULE=split)")
    endif()
  endif()
  set_property(GLOBAL PROPERTY ARENA_PERF_SCHEDULE_USED "${_schedule}")
endfunction()

# Resource spec for `ctest --resource-spec-file` (docs/DESIGN.md, "Scheduling"): one entry per
# GPU of type gpus with ARENA_GPU_UNITS slots (units of its memory); with
# ARENA_PERF_SCHEDULE=shared also one of type perf_gpus with one slot, which perf gates take
# instead; with split, GPUs before ARENA_PERF_FIRST_GPU are of type gpus only, those from it on
# of type perf_gpus only.
function(_arena_write_resource_spec)
  _arena_gpu_units()
  _arena_perf_schedule()
  get_property(_count GLOBAL PROPERTY ARENA_GPU_COUNT)
  get_property(_units GLOBAL PROPERTY ARENA_GPU_UNITS)
  get_property(_schedule GLOBAL PROPERTY ARENA_PERF_SCHEDULE_USED)
  get_property(_first_perf GLOBAL PROPERTY ARENA_PERF_FIRST_GPU)
  if(NOT _schedule STREQUAL "split")
    set(_first_perf ${_count})
  endif()
  set(_entries "")
  set(_perf_entries "")
  math(EXPR _last "${_count} - 1")
  foreach(_i RANGE ${_last})
    if(_i LESS _first_perf)
      list(APPEND _entries "{\"id\": \"${_i}\", \"slots\": ${_units}}")
    endif()
    if(_schedule STREQUAL "shared" OR NOT _i LESS _first_perf)
      list(APPEND _perf_entries "{\"id\": \"${_i}\", \"slots\": 1}")
    endif()
  endforeach()
  list(JOIN _entries ", " _joined)
  set(_types "\"gpus\": [${_joined}]")
  if(_schedule MATCHES "^(shared|split)$")
    list(JOIN _perf_entries ", " _joined)
    string(APPEND _types ", \"perf_gpus\": [${_joined}]")
  endif()
  file(WRITE "${CMAKE_BINARY_DIR}/arena_resources.json"
       "{\"version\": {\"major\": 1, \"minor\": 0}, \"local\": [{${_types}}]}\n")
endfunction()

# How a test that times kernels (perf gates, the solution's timing, the profiler) holds its
# GPU, by ARENA_PERF_SCHEDULE: all units of one GPU (exclusive), the one perf slot of a GPU
# beside its correctness gates (shared) or of a GPU that only times (split), or all units and
# the whole machine (serial).
function(arena_timed_test_resources test)
  _arena_gate_environment(${test} TIMED)
  _arena_perf_schedule()
  get_property(_schedule GLOBAL PROPERTY ARENA_PERF_SCHEDULE_USED)
  if(_schedule MATCHES "^(shared|split)$")
    set_tests_properties(${test} PROPERTIES RESOURCE_GROUPS "perf_gpus:1")
  else()
    _arena_gpu_units()
    get_property(_units GLOBAL PROPERTY ARENA_GPU_UNITS)
    set_tests_properties(${test} PROPERTIES RESOURCE_GROUPS "gpus:${_units}")
  endif()
  if(ARENA_PERF_SCHEDULE STREQUAL "serial")
    set_tests_properties(${test} PROPERTIES RUN_SERIAL TRUE)
  endif()
endfunction()

# Writes a cmake -P script's settings (VAR value ...) as set() lines, generator expressions
# evaluated: the per-task args file the agent driver includes instead of -D arguments.
function(_arena_write_args_file path)
  set(_text "# Generated at configure time; included by cmake/ArenaAgent.cmake.\n")
  set(_args "${ARGN}")
  while(_args)
    list(POP_FRONT _args _name _value)
    string(APPEND _text "set(${_name} [==[${_value}]==])\n")
  endwhile()
  file(GENERATE OUTPUT "${path}" CONTENT "${_text}")
endfunction()

# With an agent selected: <id>/agent runs it into <build>/arena/<run>/<id>/ and the
# candidate becomes what it left there (cmake/ArenaAgent.cmake, reading <kernels>/agent_args.cmake).
function(_arena_add_agent_test id candidate_var)
  cmake_parse_arguments(PARSE_ARGV 2 A "" "DIR;DESCRIPTOR;START;BASELINE;TORCH_COMPILE;CANDIDATE_FILE;README;PROMPT;SOLUTION;PACKAGE;PACKAGE_VERSION;PACKAGE_MODULES"
                        "LABELS")
  set(run_dir "${CMAKE_BINARY_DIR}/arena/${ARENA_RUN_NAME}/${id}")
  set(${candidate_var} "${run_dir}/candidate/${A_CANDIDATE_FILE}" PARENT_SCOPE)
  set(args_file "${ARENA_KERNELS_DIR}/${id}/agent_args.cmake")
  _arena_write_args_file("${args_file}"
    TASK_DIR "${A_DIR}" TASK_ID "${id}" RUN_DIR "${run_dir}" RESULT_FILE "${ARENA_GATE_RESULTS_DIR}/${id}/agent.json"
    AGENT "${ARENA_AGENT}" AGENTS_DIR "${ARENA_AGENTS_DIR}"
    SUITE_DESCRIPTOR "${A_DESCRIPTOR}" SUITES_DIR "${ARENA_SUITES_DIR}" SUITE_PROMPT "${A_PROMPT}" TIMEOUT_S "${ARENA_AGENT_TIMEOUT_S}"
    CANDIDATE_FILE "${A_CANDIDATE_FILE}" START_FILE "${A_START}" BASELINE_FILE "${A_BASELINE}"
    TORCH_COMPILE "${A_TORCH_COMPILE}" STATEMENT "${A_README}" SOLUTION_FILE "${A_SOLUTION}"
    PACKAGE "${A_PACKAGE}" PACKAGE_VERSION "${A_PACKAGE_VERSION}" PACKAGE_MODULES "${A_PACKAGE_MODULES}"
    KERNELS_DIR "${ARENA_KERNELS_DIR}/${id}" TOOLCHAIN "${ARENA_TOOLCHAIN_FILE}" COMPILE_SCRIPT "${ARENA_COMPILE_SCRIPT}"
    HARNESS_INCLUDE "${ARENA_HARNESS_INCLUDE}" PYTHON "${ARENA_PYTHON}" PY_HOST_DIR "${ARENA_PY_HOST_DIR}"
    PROFILE_SCRIPT "${ARENA_PROFILE_SCRIPT}" MODEL "${ARENA_AGENT_MODEL}" EFFORT "${ARENA_AGENT_EFFORT}"
    SANDBOX "${ARENA_AGENT_SANDBOX}" REDO "${ARENA_AGENT_REDO}" AGENT_SCRIPT "${ARENA_AGENT_SCRIPT}"
    USER_COMMAND "${ARENA_AGENT_USER_COMMAND}"
    SPEC_TOOL "$<TARGET_FILE:KernelArena::arena-spec>" RUN_AGENT_TOOL "$<TARGET_FILE:KernelArena::arena-run-agent>"
    DEVICE_INFO_TOOL "$<TARGET_FILE:KernelArena::arena-device-info>" CORRECT_TOOL "$<TARGET_FILE:KernelArena::arena-correct>"
    PERF_TOOL "$<TARGET_FILE:KernelArena::arena-perf>" PROFILE_TOOL "$<TARGET_FILE:KernelArena::arena-profile>"
    DEVICE_LIB "$<TARGET_FILE:KernelArena::arena_device>" TOOLS_LIB "$<TARGET_FILE:KernelArena::arena_tools>"
    WORKER_TOOL "$<TARGET_FILE:KernelArena::arena-worker>" WORKER_LIB "$<TARGET_FILE:KernelArena::arena_worker_lib>")
  math(EXPR _timeout "${ARENA_AGENT_TIMEOUT_S} + 600")
  _arena_gpu_units()
  get_property(_share GLOBAL PROPERTY ARENA_GPU_SHARE)  # its checks run one gate at a time
  add_test(NAME ${id}/agent
    COMMAND "${CMAKE_COMMAND}" "-DARGS_FILE=${args_file}" -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/ArenaAgent.cmake")
  set_tests_properties(${id}/agent PROPERTIES
    LABELS "${A_LABELS}" FIXTURES_SETUP "${id}/agent" RESOURCE_GROUPS "gpus:${_share}" TIMEOUT ${_timeout})
endfunction()

# Task validation (label selftest; not the suite's label, so suite runs leave it out): the
# baseline (the descriptor's ORACLE_CHECK) and the expert solution against the oracle on every
# configuration (seen, unseen, fuzz), and the solution confidently faster than the baseline
# (AT_LIMIT, a baseline at the hardware's limit: only confidently slower on no seen
# configuration, which arena-perf checks either way). A task that fails does not ship. A
# task without a SOLUTION gets the first check only.
#   CORRECT / PERF: the runner commands; JUDGE: --task/--baseline/--reference and the worker
#   arguments; PERF_ARGS: the perf references; ORACLE_CHECK: <name> <kernel>; COMPILE: the
#   descriptor's compile template; SOLUTION_OUTPUT / SOLUTION_KERNEL: the compiled solution;
#   RESOURCES: a correctness check's RESOURCE_GROUPS (every configuration: seen and unseen's).
#   COMPILED_BY_GATE: the candidate's compiled file, when the candidate is this solution (the
#   compile gate then compiles it, and compile_solution takes its library: it is not compiled twice).
function(_arena_add_selftests id)
  cmake_parse_arguments(PARSE_ARGV 1 S "AT_LIMIT" "SOLUTION;SOLUTION_OUTPUT;SOLUTION_KERNEL;SPEC;REFERENCE;RESOURCES;COMPILED_BY_GATE"
                        "LABELS;CORRECT;PERF;JUDGE;PERF_ARGS;ORACLE_CHECK;COMPILE;ORACLE_CACHE")
  set(prefix "selftest/${id}")
  set(rdir "${ARENA_GATE_RESULTS_DIR}/selftest/${id}")
  set(correct ${S_CORRECT} ${S_JUDGE} --set all --fuzz-seed ${ARENA_FUZZ_SEED} ${S_ORACLE_CACHE})
  list(GET S_ORACLE_CHECK 0 first_check)
  list(GET S_ORACLE_CHECK 1 first_kernel)
  add_test(NAME ${prefix}/${first_check}
    COMMAND ${correct} --candidate "${first_kernel}" --result "${rdir}/${first_check}.json")
  set_tests_properties(${prefix}/${first_check} PROPERTIES
    LABELS "${S_LABELS};gpu" RESOURCE_GROUPS "${S_RESOURCES}" SKIP_RETURN_CODE 77 TIMEOUT 900)
  _arena_gate_environment(${prefix}/${first_check})
  if(NOT S_SOLUTION)
    return()
  endif()
  if(S_COMPILED_BY_GATE)
    set(compile "${CMAKE_COMMAND}" "-DSOURCE=${S_SOLUTION}" "-DGATE=${id}/compile" "-DFROM=${S_COMPILED_BY_GATE}"
        "-DFROM_RESULT=${ARENA_GATE_RESULTS_DIR}/${id}/compile.json" "-DOUTPUT=${S_SOLUTION_OUTPUT}"
        "-DRESULT=${rdir}/compile_solution.json" "-DWHAT=${id} solution"
        -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/ArenaReuseCompiled.cmake")
  else()
    arena_suite_command(compile "${S_COMPILE}" SOURCE "${S_SOLUTION}" OUTPUT "${S_SOLUTION_OUTPUT}"
                        WHAT "${id} solution" RESULT "${rdir}/compile_solution.json")
  endif()
  add_test(NAME ${prefix}/compile_solution COMMAND ${compile})
  add_test(NAME ${prefix}/solution_correct
    COMMAND ${correct} --candidate "${S_SOLUTION_KERNEL}" --result "${rdir}/solution_correct.json")
  set(require_faster 1)
  if(S_AT_LIMIT)
    set(require_faster 0)
  endif()
  add_test(NAME ${prefix}/solution_faster
    COMMAND ${S_PERF} ${S_JUDGE} --candidate "${S_SOLUTION_KERNEL}" ${S_PERF_ARGS} --budget-s ${ARENA_PERF_BUDGET_S}
            --flush-bytes ${ARENA_FLUSH_BYTES} --require-faster ${require_faster} --result "${rdir}/solution_faster.json")
  set_tests_properties(${prefix}/compile_solution PROPERTIES
    LABELS "${S_LABELS}" FIXTURES_SETUP "${prefix}/solution" TIMEOUT 900)
  if(S_COMPILED_BY_GATE)
    set_tests_properties(${prefix}/compile_solution PROPERTIES FIXTURES_REQUIRED "${id}/compiled")
  endif()
  set_tests_properties(${prefix}/solution_correct PROPERTIES
    LABELS "${S_LABELS};gpu" RESOURCE_GROUPS "${S_RESOURCES}" SKIP_RETURN_CODE 77 TIMEOUT 900
    FIXTURES_REQUIRED "${prefix}/solution" FIXTURES_SETUP "${prefix}/solution_correct")
  _arena_gate_environment(${prefix}/solution_correct)
  math(EXPR _perf_timeout "${ARENA_PERF_BUDGET_S} * 3 + 420")
  set_tests_properties(${prefix}/solution_faster PROPERTIES
    LABELS "${S_LABELS};gpu" FIXTURES_REQUIRED "${prefix}/solution;${prefix}/solution_correct"
    SKIP_RETURN_CODE 77 TIMEOUT ${_perf_timeout})
  arena_timed_test_resources(${prefix}/solution_faster)
  _arena_add_task_filter(${prefix} "${rdir}" SPEC "${S_SPEC}" REFERENCE "${S_REFERENCE}" LABELS ${S_LABELS})
endfunction()

# Opt-in (ARENA_PROFILE): one launch of candidate and baseline each under Nsight Compute on
# the first seen configuration; the report's bottleneck classes become measurements.
#   RUNNER: the runner command; SIDES: candidate=<kernel> <baseline side>=<kernel>.
function(_arena_add_profile_test id)
  cmake_parse_arguments(PARSE_ARGV 1 P "" "SPEC" "LABELS;RUNNER;SIDES")
  # arena-profile.sh runs its runner through the shell: one string, each word quoted.
  list(JOIN P_RUNNER "\" \"" runner)
  set(runner "\"${runner}\"")
  set(side_args "")
  foreach(_side IN LISTS P_SIDES)
    list(APPEND side_args --side "${_side}")
  endforeach()
  set(rdir "${ARENA_GATE_RESULTS_DIR}/${id}")
  add_test(NAME ${id}/profile
    COMMAND sh "${ARENA_PROFILE_SCRIPT}" --runner "${runner}" --task "${P_SPEC}"
            --out "${rdir}/profile" --result "${rdir}/profile.json" --title "${id}" --measurements ${side_args})
  set_tests_properties(${id}/profile PROPERTIES
    LABELS "${P_LABELS}" FIXTURES_REQUIRED "${id}/compiled;${id}/correct" SKIP_RETURN_CODE 77 TIMEOUT 600)
  arena_timed_test_resources(${id}/profile)
endfunction()

# The correctness gates' oracle cache (ARENA_ORACLE_CACHE, ARENA_ORACLE_CACHE_GB): a folder of
# the build tree (a subfolder per task), which only the judge writes (confined workers may not
# even read the build tree, and an agent's sandbox does not show it; docs/DESIGN.md, "Correctness").
# ARENA_ORACLE_CACHE_GB=auto: a quarter of the free disk under the build tree, 4 to 256 GB (one
# suite's outputs worth keeping are tens of GB; 16 GB kept a quarter of hip2hip's). Asked once.
function(_arena_oracle_cache_gb out)
  get_property(_gb GLOBAL PROPERTY ARENA_ORACLE_CACHE_GB_RESOLVED)
  if(NOT _gb)
    set(_gb "${ARENA_ORACLE_CACHE_GB}")
    if(_gb STREQUAL "auto")
      set(_gb 16)
      execute_process(COMMAND df -Pk "${CMAKE_BINARY_DIR}" OUTPUT_VARIABLE _df RESULT_VARIABLE _rc ERROR_QUIET)
      if(_rc EQUAL 0 AND _df MATCHES " ([0-9]+) +[0-9]+% +[^ ]+[ \t\r\n]*$")
        math(EXPR _gb "${CMAKE_MATCH_1} / 4 / 1048576")
        if(_gb LESS 4)
          set(_gb 4)
        elseif(_gb GREATER 256)
          set(_gb 256)
        endif()
      endif()
      message(STATUS "Oracle cache: at most ${_gb} GB (ARENA_ORACLE_CACHE_GB=auto)")
    endif()
    set_property(GLOBAL PROPERTY ARENA_ORACLE_CACHE_GB_RESOLVED ${_gb})
  endif()
  set(${out} ${_gb} PARENT_SCOPE)
endfunction()

function(_arena_oracle_cache_args out)
  if(ARENA_ORACLE_CACHE)
    _arena_oracle_cache_gb(_gb)
    math(EXPR _mb "${_gb} * 1024")
    set(${out} --oracle-cache "${CMAKE_BINARY_DIR}/arena/oracle_cache" --oracle-cache-budget-mb ${_mb} PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

# The task's host oracle (reference.cpp), built with the project into <kdir>/reference.so.
function(_arena_add_reference tgt source kdir libraries)
  add_library(arena_reference_${tgt} MODULE "${source}")
  target_link_libraries(arena_reference_${tgt} PRIVATE KernelArena::abi ${libraries})
  set_target_properties(arena_reference_${tgt} PROPERTIES
    PREFIX "" OUTPUT_NAME reference LIBRARY_OUTPUT_DIRECTORY "${kdir}" CXX_VISIBILITY_PRESET hidden)
endfunction()

# The baseline kernel library, built with the project (it is trusted and also the perf reference).
function(_arena_add_baseline id tgt source output compile_template)
  arena_suite_command(compile "${compile_template}" SOURCE "${source}" OUTPUT "${output}" WHAT "${id} baseline")
  add_custom_command(
    OUTPUT "${output}"
    COMMAND ${compile}
    DEPENDS "${source}" "${ARENA_COMPILE_SCRIPT}" "${ARENA_TOOLCHAIN_FILE}" "${ARENA_HARNESS_INCLUDE}/arena/arena_abi.h"
    COMMENT "Compiling ${id} baseline" VERBATIM)
  add_custom_target(arena_baseline_${tgt} ALL DEPENDS "${output}")
endfunction()

# The runner command for a descriptor's RUNNER: the native executable, or the same runner
# in libarena_tools.so under the Python host (which serves Python kernels and oracles).
function(_arena_runner_command runner tool out)
  if(runner STREQUAL "python")
    set(${out} "${ARENA_PYTHON}" "${ARENA_PY_HOST_DIR}/arena_host.py" "$<TARGET_FILE:KernelArena::arena_tools>" ${tool}
        PARENT_SCOPE)
  else()
    set(${out} "$<TARGET_FILE:KernelArena::${tool}>" PARENT_SCOPE)
  endif()
endfunction()

# One task's gates. Reads the manifest's ARENA_TASK_<suite>__<name>_*, the suite's
# descriptor (ARENA_SUITE_*, read by arena_add_task) and the files arena_add_task resolved
# (_task_spec, _task_baseline, _task_reference, _task_candidate, _task_solution, _task_readme,
# _task_prompt, _task_labels, _task_descriptor).
function(_arena_add_task id)
  string(REPLACE "/" "__" _k "${id}")
  set(key "ARENA_TASK_${_k}")
  set(suite "${${key}_SUITE}")
  set(category "${${key}_CATEGORY}")
  set(kdir "${ARENA_KERNELS_DIR}/${id}")
  set(rdir "${ARENA_GATE_RESULTS_DIR}/${id}")
  string(MAKE_C_IDENTIFIER "${suite}_${${key}_NAME}" tgt)

  _arena_runner_command(${ARENA_SUITE_RUNNER} arena-correct correct_cmd)
  _arena_runner_command(${ARENA_SUITE_RUNNER} arena-perf perf_cmd)
  set(baseline "${ARENA_SUITE_BASELINE}")
  # How every gate starts its workers (harness/src/gate_workers.h): the worker program, the
  # Python for Python kernels, and the folders a confined worker may never read.
  set(worker_args --worker "$<TARGET_FILE:KernelArena::arena-worker>" --worker-lib "$<TARGET_FILE:KernelArena::arena_worker_lib>"
      --python "${ARENA_PYTHON}" --py-host "${ARENA_PY_HOST_DIR}/arena_host.py"
      --protect "${CMAKE_SOURCE_DIR}:${CMAKE_BINARY_DIR}:${ARENA_DATA_DIR}")
  if(ARENA_SUITE_BUILD_BASELINE)
    _arena_add_baseline(${id} ${tgt} "${_task_baseline}" "${kdir}/baseline.so" "${ARENA_SUITE_BASELINE_COMPILE}")
  endif()
  if(ARENA_SUITE_BUILD_REFERENCE)
    _arena_add_reference(${tgt} "${_task_reference}" "${kdir}" "${_task_reference_libraries}")
  endif()
  if(ARENA_SUITE_START STREQUAL "skeleton")  # an ABI skeleton of the spec's tensors and params
    set(start "${kdir}/skeleton.hip")
    file(MAKE_DIRECTORY "${kdir}")
    _arena_spec_tool(_checker)
    execute_process(COMMAND "${_checker}" skeleton "${_task_spec}" "${start}"
                    RESULT_VARIABLE _rc ERROR_VARIABLE _err)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "${id}: cannot write the ABI skeleton: ${_err}")
    endif()
  elseif(ARENA_SUITE_START STREQUAL "baseline")
    set(start "${_task_baseline}")
  else()  # a file of the task's folder
    set(start "${${key}_DIR}/${ARENA_SUITE_START}")
    if(NOT EXISTS "${start}")
      message(FATAL_ERROR "${id}: ${start} does not exist (the suite's descriptor ${_task_descriptor} starts agents from it)")
    endif()
  endif()

  _arena_candidate_source(${key} "${start}" candidate_src fallback)
  set(candidate_lib "${kdir}/candidate${ARENA_SUITE_COMPILED_SUFFIX}")
  set(candidate_arg "${ARENA_SUITE_KERNEL_PREFIX}${candidate_lib}")
  set(common_labels "${suite};${category}${_task_labels}")
  set(compile_labels "${common_labels};compile")
  set(what "${id} candidate")
  if(fallback)  # no candidate file: the baseline is judged, and the scores say so
    set(what "${id} baseline (fallback: no candidate file)")
    list(APPEND compile_labels candidate_fallback)
  endif()
  set(compile_requires "")
  if(ARENA_AGENT)
    string(REPLACE ";" "," _package_modules "${${key}_PACKAGE_MODULES}")  # one word in the args file
    _arena_add_agent_test(${id} candidate_src DIR "${${key}_DIR}" DESCRIPTOR "${_task_descriptor}" START "${start}"
      BASELINE "${_task_baseline}" TORCH_COMPILE "${${key}_TORCH_COMPILE}" CANDIDATE_FILE "${ARENA_SUITE_CANDIDATE_FILE}"
      README "${_task_readme}" PROMPT "${_task_prompt}" SOLUTION "${_task_solution}"
      PACKAGE "${${key}_PACKAGE}" PACKAGE_VERSION "${${key}_PACKAGE_VERSION}" PACKAGE_MODULES "${_package_modules}"
      LABELS ${common_labels} agent)
    set(compile_requires "${id}/agent")
  endif()

  # ====================================================================================
  # Gate commands: every runner command line of a task's four gates is built below
  # (the opt-in tests' in _arena_add_agent_test, _arena_add_profile_test and
  # _arena_add_selftests above).
  # ====================================================================================
  arena_suite_command(compile_cmd "${ARENA_SUITE_COMPILE}" SOURCE "${candidate_src}" OUTPUT "${candidate_lib}"
                      WHAT "${what}" RESULT "${rdir}/compile.json" CONFINE ON)
  add_test(NAME ${id}/compile COMMAND ${compile_cmd})
  set_tests_properties(${id}/compile PROPERTIES
    LABELS "${compile_labels}" FIXTURES_SETUP "${id}/compiled" TIMEOUT 900)
  if(compile_requires)
    set_tests_properties(${id}/compile PROPERTIES FIXTURES_REQUIRED "${compile_requires}")
  endif()

  set(judge --task "${_task_spec}" --baseline "${baseline}" --reference "${ARENA_SUITE_REFERENCE}" ${worker_args})
  set(runner_args --task "${_task_spec}" --candidate "${candidate_arg}" --baseline "${baseline}"
                  --reference "${ARENA_SUITE_REFERENCE}" ${worker_args})
  _arena_oracle_cache_args(oracle_cache)
  foreach(set_name seen unseen)
    string(TOUPPER ${set_name} _set)
    _arena_correct_resources(${${key}_GPU_BYTES_${_set}} correct_resources)
    add_test(NAME ${id}/correct_${set_name}
      COMMAND ${correct_cmd} ${runner_args} --set ${set_name} --fuzz-seed ${ARENA_FUZZ_SEED} ${oracle_cache}
              --result "${rdir}/correct_${set_name}.json")
    set_tests_properties(${id}/correct_${set_name} PROPERTIES
      LABELS "${common_labels};correct_${set_name};gpu"
      FIXTURES_REQUIRED "${id}/compiled" FIXTURES_SETUP "${id}/correct"
      RESOURCE_GROUPS "${correct_resources}" SKIP_RETURN_CODE 77 TIMEOUT 600)
    _arena_gate_environment(${id}/correct_${set_name})
  endforeach()

  math(EXPR _perf_timeout "${ARENA_PERF_BUDGET_S} * 3 + 120 + ${ARENA_SUITE_PERF_EXTRA_S}")
  add_test(NAME ${id}/perf
    COMMAND ${perf_cmd} ${runner_args} ${ARENA_SUITE_PERF_ARGS} --budget-s ${ARENA_PERF_BUDGET_S}
            --flush-bytes ${ARENA_FLUSH_BYTES} --result "${rdir}/perf.json" --gbench-out "${rdir}/perf.gbench.json")
  set_tests_properties(${id}/perf PROPERTIES
    LABELS "${common_labels};perf;gpu"
    FIXTURES_REQUIRED "${id}/compiled;${id}/correct" SKIP_RETURN_CODE 77 TIMEOUT ${_perf_timeout})
  arena_timed_test_resources(${id}/perf)
  # ==================================================================== end of gate commands
  if(ARENA_PROFILE)
    _arena_runner_command(${ARENA_SUITE_PROFILE_RUNNER} arena-profile profile_cmd)
    _arena_add_profile_test(${id} SPEC "${_task_spec}" RUNNER ${profile_cmd}
      SIDES "candidate=${candidate_arg}" "${ARENA_SUITE_BASELINE_SIDE}=${baseline}"
      LABELS ${common_labels} profile gpu)
  endif()
  if(ARENA_SELFTEST)
    set(solution_out "${kdir}/solution${ARENA_SUITE_COMPILED_SUFFIX}")
    set(compiled_by_gate "")
    if(NOT ARENA_AGENT AND NOT fallback AND _task_solution AND candidate_src STREQUAL _task_solution)
      set(compiled_by_gate "${candidate_lib}")  # ARENA_CANDIDATE=solution: the gate compiles it
    endif()
    set(_all_bytes ${${key}_GPU_BYTES_SEEN})
    if(${key}_GPU_BYTES_UNSEEN GREATER _all_bytes)
      set(_all_bytes ${${key}_GPU_BYTES_UNSEEN})
    endif()
    _arena_correct_resources(${_all_bytes} all_resources)
    set(_at_limit "")
    if(${key}_AT_LIMIT)
      set(_at_limit AT_LIMIT)
    endif()
    _arena_add_selftests(${id} ${_at_limit} COMPILED_BY_GATE "${compiled_by_gate}" LABELS selftest ${category}${_task_labels} CORRECT ${correct_cmd} PERF ${perf_cmd}
      JUDGE ${judge} ORACLE_CACHE ${oracle_cache} PERF_ARGS ${ARENA_SUITE_PERF_ARGS} ORACLE_CHECK ${ARENA_SUITE_ORACLE_CHECK} "${ARENA_SUITE_ORACLE_CHECK_KERNEL}"
      COMPILE ${ARENA_SUITE_COMPILE} SOLUTION "${_task_solution}" SOLUTION_OUTPUT "${solution_out}"
      SOLUTION_KERNEL "${ARENA_SUITE_KERNEL_PREFIX}${solution_out}" SPEC "${_task_spec}"
      REFERENCE "${ARENA_SUITE_REFERENCE}" RESOURCES "${all_resources}")
  endif()
endfunction()

# Once per configure, at the first task: the settings are checked, and the end of the
# top-level CMakeLists.txt writes the resource spec and says what was generated.
function(_arena_setup_once)
  get_property(_done GLOBAL PROPERTY _ARENA_SETUP_DONE)
  if(_done)
    return()
  endif()
  set_property(GLOBAL PROPERTY _ARENA_SETUP_DONE TRUE)
  arena_check_settings()
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _arena_finish_configure)
endfunction()

function(_arena_finish_configure)
  _arena_load_globals()
  get_property(_ids GLOBAL PROPERTY ARENA_TASK_IDS)
  get_property(_missing GLOBAL PROPERTY ARENA_CANDIDATE_MISSING)
  _arena_write_resource_spec()
  list(LENGTH _ids _n)
  list(LENGTH _missing _nm)
  _arena_absolute_candidate(_cand)
  if(ARENA_AGENT)
    set(_what "what agent ${ARENA_AGENT} leaves (run ${ARENA_RUN_NAME})")
  elseif(_cand STREQUAL "")
    set(_what "each task's CANDIDATE, else its baseline (A/A)")
  elseif(_cand STREQUAL "baseline")
    set(_what "baseline (A/A)")
  else()
    set(_what "${_cand}")
  endif()
  if(_nm GREATER 0 AND NOT ARENA_AGENT)
    list(SUBLIST _missing 0 5 _some)
    list(JOIN _some ", " _some)
    if(_cand STREQUAL "solution")
      set(_where "no SOLUTION")
    else()
      set(_where "no file in ${_cand}")
    endif()
    if(_nm EQUAL _n AND ARENA_CANDIDATE_FALLBACK STREQUAL "none")
      arena_stop("ARENA_CANDIDATE is '${ARENA_CANDIDATE}' but none of the ${_n} task(s) has a candidate there "
                 "(${_where}: ${_some}...): a folder holds <suite>/<task>/<the suite's candidate file>, e.g. kernel.hip")
    elseif(ARENA_CANDIDATE_FALLBACK STREQUAL "baseline")
      message(STATUS "KernelArena: ${_nm} of ${_n} task(s) have ${_where} and fall back to their baselines "
                     "(marked candidate_fallback in the scores): ${_some}")
    else()
      message(WARNING "${_nm} of ${_n} task(s) have ${_where}: their compile gates will fail "
                      "(-DARENA_CANDIDATE_FALLBACK=baseline judges their baselines instead): ${_some}")
    endif()
  endif()
  message(STATUS "KernelArena: ${_n} task(s); candidate = ${_what}; fuzz seed in the build cache")
endfunction()

# What is wrong with a task whose suite's oracle is a Python model (the descriptor's
# REFERENCE=<file>.py) but whose spec does not bind it to the ABI ("torch"); "" if nothing.
function(_arena_binding_problem dir has_torch descriptor out)
  arena_suite_task_file(REFERENCE _reference)
  set(${out} "" PARENT_SCOPE)
  if(_reference MATCHES "\\.py$" AND NOT has_torch)
    set(${out} "${dir}/task.json: torch: missing (the oracle of this suite is the model ${_reference}, which "
               "task.json binds to the ABI; ${descriptor})" PARENT_SCOPE)
  endif()
endfunction()

# A task's files agree with its suite's descriptor: the spec's candidate file is the
# descriptor's, a BASELINE is given where the suite has one, an oracle the runners read
# from the task folder (not built) lies there, and an oracle that is a Python model
# (REFERENCE=<file>.py) is bound to the ABI by the spec's "torch".
function(_arena_check_task_files id descriptor dir spec_candidate)
  cmake_parse_arguments(PARSE_ARGV 4 F "" "BASELINE;REFERENCE;TORCH" "")
  if(NOT spec_candidate STREQUAL ARENA_SUITE_CANDIDATE_FILE)
    message(FATAL_ERROR "${dir}/task.json: candidate: \"${spec_candidate}\" but the suite's descriptor ${descriptor} "
                        "takes \"${ARENA_SUITE_CANDIDATE_FILE}\"")
  endif()
  arena_suite_task_file(BASELINE _baseline)
  if(_baseline AND NOT F_BASELINE)
    message(FATAL_ERROR "arena_add_task(${id}): BASELINE is required (the kernel the candidate is timed against)")
  endif()
  _arena_binding_problem("${dir}" "${F_TORCH}" "${descriptor}" _problem)
  if(_problem)
    message(FATAL_ERROR "${_problem}")
  endif()
  arena_suite_task_file(REFERENCE _reference)
  if(NOT ARENA_SUITE_BUILD_REFERENCE)
    get_filename_component(_given "${F_REFERENCE}" REALPATH)
    get_filename_component(_expected "${dir}/${_reference}" REALPATH)
    if(NOT _given STREQUAL _expected)
      message(FATAL_ERROR "arena_add_task(${id}): this suite's REFERENCE is ${_reference} beside its spec "
                          "(${dir}/${_reference}), not ${F_REFERENCE}")
    endif()
  endif()
endfunction()

# --- the public functions ------------------------------------------------------------------

# arena_add_task(NAME <name> SUITE <suite> SPEC <task.json> REFERENCE <oracle>
#                [BASELINE <kernel>] [CANDIDATE <kernel>] [SOLUTION <kernel>]
#                [README <statement.md>] [PROMPT <prompt.md>] [LABELS <label>...]
#                [REFERENCE_LIBRARIES <target>...])
#
# Adds the gates of one task (docs/package.md). Relative paths are taken
# from the current source folder. NAME and SUITE must match the spec's "name" and "suite";
# the tests are <SUITE>/<NAME>/compile, correct_seen, correct_unseen and perf.
function(arena_add_task)
  cmake_parse_arguments(PARSE_ARGV 0 T "" "NAME;SUITE;SPEC;BASELINE;REFERENCE;CANDIDATE;SOLUTION;README;PROMPT"
                        "LABELS;REFERENCE_LIBRARIES")
  if(T_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "arena_add_task: unknown arguments: ${T_UNPARSED_ARGUMENTS}")
  endif()
  _arena_load_globals()
  foreach(_req NAME SUITE SPEC REFERENCE)
    if(NOT T_${_req})
      message(FATAL_ERROR "arena_add_task(${T_NAME}): ${_req} is required")
    endif()
  endforeach()
  foreach(_f SPEC BASELINE REFERENCE CANDIDATE SOLUTION README PROMPT)
    if(T_${_f})
      get_filename_component(T_${_f} "${T_${_f}}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      if(NOT EXISTS "${T_${_f}}")
        message(FATAL_ERROR "arena_add_task(${T_NAME}): ${_f} ${T_${_f}} does not exist")
      endif()
    endif()
  endforeach()
  _arena_setup_once()

  # The spec: validated by arena_add_suite_directory already, or here.
  set(id "${T_SUITE}/${T_NAME}")
  string(REPLACE "/" "__" _k "${id}")
  set(key "ARENA_TASK_${_k}")
  get_filename_component(_spec_real "${T_SPEC}" REALPATH)
  if(NOT "${${key}_FILE}" STREQUAL "${_spec_real}")
    string(MD5 _h "${_spec_real}")
    _arena_read_manifest("${CMAKE_BINARY_DIR}/arena/manifests/${_h}.cmake" "${T_SPEC}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${T_SPEC}")
    if(NOT "${${key}_FILE}" STREQUAL "${_spec_real}")
      list(GET ARENA_TASK_IDS 0 _spec_id)
      message(FATAL_ERROR "arena_add_task(NAME ${T_NAME} SUITE ${T_SUITE}): ${T_SPEC} describes task '${_spec_id}' "
                          "(its \"suite\" and \"name\"): make NAME and SUITE match them")
    endif()
  endif()
  # What the task is made of: the suite's descriptor says which files it has and how they
  # are judged; its inputs are this task's folders and the build's tools.
  arena_find_suite("${T_SUITE}" _task_descriptor)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_task_descriptor}")
  set(ARENA_TASK_DIR "${${key}_DIR}")
  set(ARENA_TASK_BASELINE "${T_BASELINE}")
  set(ARENA_TASK_KERNELS "${ARENA_KERNELS_DIR}/${id}")
  set(ARENA_TASK_TORCH_COMPILE "${${key}_TORCH_COMPILE}")
  set(ARENA_TASK_PACKAGE_MODULES "${${key}_PACKAGE_MODULES}")
  set(ARENA_CMAKE "${CMAKE_COMMAND}")
  set(ARENA_PY_HOST "${ARENA_PY_HOST_DIR}")
  set(ARENA_TOOLCHAIN "${ARENA_TOOLCHAIN_FILE}")
  arena_read_suite("${_task_descriptor}")
  # A suite runs where its descriptor says (ARENA_SUITE_PLATFORMS): elsewhere its tasks get no
  # gates, said once per suite.
  arena_suite_runs_on("${ARENA_PLATFORM}" _runs_here)
  if(NOT _runs_here)
    get_property(_told GLOBAL PROPERTY _ARENA_SUITES_SKIPPED)
    if(NOT T_SUITE IN_LIST _told)
      set_property(GLOBAL APPEND PROPERTY _ARENA_SUITES_SKIPPED "${T_SUITE}")
      list(JOIN ARENA_SUITE_PLATFORMS ", " _where)
      message(STATUS "KernelArena: suite ${T_SUITE} skipped: it runs on ${_where} (ARENA_SUITE_PLATFORMS of "
                     "${_task_descriptor}), not on ${ARENA_PLATFORM}; its tasks get no gates")
    endif()
    return()
  endif()
  get_property(_ids GLOBAL PROPERTY ARENA_TASK_IDS)
  if(id IN_LIST _ids)
    message(FATAL_ERROR "arena_add_task: ${id} is added twice")
  endif()
  set_property(GLOBAL APPEND PROPERTY ARENA_TASK_IDS "${id}")

  _arena_check_task_files(${id} "${_task_descriptor}" "${${key}_DIR}" "${${key}_CANDIDATE_FILE}"
                          BASELINE "${T_BASELINE}" REFERENCE "${T_REFERENCE}" TORCH "${${key}_TORCH}")
  set(_task_spec "${${key}_FILE}")
  set(_task_baseline "${T_BASELINE}")
  set(_task_reference "${T_REFERENCE}")
  set(_task_candidate "${T_CANDIDATE}")
  set(_task_solution "${T_SOLUTION}")
  set(_task_reference_libraries "${T_REFERENCE_LIBRARIES}")
  set(_task_labels "")
  foreach(_l IN LISTS T_LABELS)
    string(APPEND _task_labels ";${_l}")
  endforeach()
  set(_task_readme "${T_README}")
  if(NOT _task_readme)  # the agent's statement: the spec's description
    set(_task_readme "${ARENA_KERNELS_DIR}/${id}/README.md")
    file(MAKE_DIRECTORY "${ARENA_KERNELS_DIR}/${id}")
    file(WRITE "${_task_readme}" "# ${T_NAME}\n\n${${key}_DESCRIPTION}\n")
  endif()
  set(_task_prompt "${T_PROMPT}")
  if(NOT _task_prompt)  # the suite's prompt (its descriptor's PROMPT)
    set(_task_prompt "${ARENA_SUITE_PROMPT}")
  endif()
  _arena_add_task(${id})
endfunction()

# arena_add_suite_directory(<dir> [SUITE <suite>] [LABELS <label>...] [REFERENCE_LIBRARIES <target>...])
#
# Adds every task folder <dir>/<task>/ holding a task.json (docs/package.md): the baseline, reference and solution files its suite's descriptor names
# (ARENA_SUITE_TASK_FILES; the oracle is the shared one task.json's "reference" names, where it
# names one) and README.md, where present. Each folder must be named like its task; with SUITE,
# each spec's suite must be SUITE.
function(arena_add_suite_directory dir)
  cmake_parse_arguments(PARSE_ARGV 1 D "" "SUITE" "LABELS;REFERENCE_LIBRARIES")
  if(D_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "arena_add_suite_directory: unknown arguments: ${D_UNPARSED_ARGUMENTS}")
  endif()
  _arena_load_globals()
  get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  file(GLOB _specs CONFIGURE_DEPENDS "${dir}/*/task.json")
  list(SORT _specs)
  if(NOT _specs)
    message(FATAL_ERROR "arena_add_suite_directory: no <task>/task.json under ${dir}")
  endif()
  if(ARENA_TASK_FILTER)  # only some tasks (the main job's TASKS): a regex over folder names
    set(_kept "")
    foreach(_spec IN LISTS _specs)
      get_filename_component(_name "${_spec}" DIRECTORY)
      get_filename_component(_name "${_name}" NAME)
      if(_name MATCHES "${ARENA_TASK_FILTER}")
        list(APPEND _kept "${_spec}")
      endif()
    endforeach()
    set(_specs "${_kept}")
    if(NOT _specs)
      message(STATUS "KernelArena: no task of ${dir} matches ARENA_TASK_FILTER=${ARENA_TASK_FILTER}")
      return()
    endif()
  endif()
  _arena_setup_once()
  string(MD5 _h "${dir}")
  set(_arena_keep_going TRUE)
  _arena_read_manifest("${CMAKE_BINARY_DIR}/arena/manifests/${_h}.cmake" ${_specs})
  set(_arena_keep_going FALSE)
  _arena_add_invalid_task_tests("${D_SUITE}")
  foreach(_id IN LISTS ARENA_TASK_IDS)
    string(REPLACE "/" "__" _k "${_id}")
    set(_key "ARENA_TASK_${_k}")
    set(_d "${${_key}_DIR}")
    get_filename_component(_folder "${_d}" NAME)
    if(NOT _folder STREQUAL "${${_key}_NAME}")
      message(FATAL_ERROR "${_d}/task.json: name: \"${${_key}_NAME}\" differs from its folder \"${_folder}\"")
    endif()
    if(D_SUITE AND NOT D_SUITE STREQUAL "${${_key}_SUITE}")
      message(FATAL_ERROR "${_d}/task.json: suite: \"${${_key}_SUITE}\" differs from the suite ${D_SUITE} of ${dir}")
    endif()
    set(_args NAME "${${_key}_NAME}" SUITE "${${_key}_SUITE}" SPEC "${_d}/task.json")
    arena_find_suite("${${_key}_SUITE}" _descriptor)
    arena_read_suite("${_descriptor}")
    # A spec its suite's descriptor refuses is kept in the counts like an invalid spec: a
    # warning, and a compile test that fails with the same message.
    _arena_binding_problem("${_d}" "${${_key}_TORCH}" "${_descriptor}" _problem)
    _arena_load_globals()
    arena_suite_runs_on("${ARENA_PLATFORM}" _runs_here)
    if(_problem AND _runs_here)
      _arena_add_refused_task_test("${_id}" "${_problem}")
      continue()
    endif()
    if(${_key}_REFERENCE)  # task.json's "reference": a shared oracle (tasks/_oracles)
      list(APPEND _args REFERENCE "${${_key}_REFERENCE}")
    endif()
    foreach(_what BASELINE REFERENCE SOLUTION)  # the files the suite's descriptor names
      arena_suite_task_file(${_what} _file)
      if(_file AND EXISTS "${_d}/${_file}" AND NOT "${_what}" IN_LIST _args)
        list(APPEND _args ${_what} "${_d}/${_file}")
      endif()
    endforeach()
    if(EXISTS "${_d}/README.md")
      list(APPEND _args README "${_d}/README.md")
    endif()
    if(NOT "REFERENCE" IN_LIST _args)
      arena_suite_task_file(REFERENCE _file)
      message(FATAL_ERROR "${_d}: a task needs its oracle (${_file}, as ${_descriptor} says)")
    endif()
    if(D_LABELS)
      list(APPEND _args LABELS ${D_LABELS})
    endif()
    if(D_REFERENCE_LIBRARIES)
      list(APPEND _args REFERENCE_LIBRARIES ${D_REFERENCE_LIBRARIES})
    endif()
    arena_add_task(${_args})
  endforeach()
endfunction()
