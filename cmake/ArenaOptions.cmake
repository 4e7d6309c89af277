# The settings of KernelArena's gates, as cache variables: read by this project's own build
# and by every project that uses the installed package (find_package(KernelArena)) or adds
# the source tree (add_subdirectory / FetchContent). docs/ctest-cdash-hpc.md lists them.
include_guard(GLOBAL)

# Stops configure with the reason on one line, first (CMake's own error text re-wraps it).
macro(arena_stop)
  string(JOIN "" _arena_why ${ARGV})
  message("KernelArena: ${_arena_why}")
  message(FATAL_ERROR "KernelArena: configure stopped (the reason is the line above)")
endmacro()

set(ARENA_HIP_PLATFORM "auto" CACHE STRING
    "GPU platform for kernels: auto, amd or nvidia; none: the framework and its unit tests only (no kernel compiler, no gates)")
set_property(CACHE ARENA_HIP_PLATFORM PROPERTY STRINGS auto amd nvidia none)
set(ARENA_CUDA_ARCHITECTURES "90" CACHE STRING "CUDA architectures for kernels (nvidia), e.g. 80;90")
set(ARENA_AMD_ARCHITECTURES "gfx90a" CACHE STRING "AMD offload architectures for kernels, e.g. gfx90a;gfx942")
set(ARENA_SUITE_PATH "" CACHE STRING
    "Folders holding <suite>/suite.cmake descriptors of a project's own suites, searched before KernelArena's suites/")
set(ARENA_CANDIDATE "" CACHE STRING
    "Candidate kernels: empty (each task's own CANDIDATE, else its baseline: an A/A run), 'baseline', 'solution' or a folder of <suite>/<task>/<candidate file>")
set(ARENA_CANDIDATE_FALLBACK "none" CACHE STRING
    "When ARENA_CANDIDATE is a folder (or 'solution') without a task's file: 'none' (the compile gate fails) or 'baseline'")
set_property(CACHE ARENA_CANDIDATE_FALLBACK PROPERTY STRINGS none baseline)
set(ARENA_AGENT "" CACHE STRING
    "Agent that writes the candidates (agents/<name>: baseline, replay, command, claude_code, codex, cursor); empty: none")
set(ARENA_RUN_NAME "run" CACHE STRING "Agent run name: workspaces and transcripts go to <build>/arena/<run>/<suite>/<task>/")
set(ARENA_AGENT_TIMEOUT_S "3600" CACHE STRING "Wall-time limit of one agent on one task (its whole process group is killed)")
set(ARENA_AGENT_MODEL "" CACHE STRING "Model name passed to the agent CLI (empty: its default)")
set(ARENA_AGENT_EFFORT "" CACHE STRING "Reasoning effort passed to the agent CLI where it has one (empty: its default)")
option(ARENA_AGENT_SANDBOX "Run agents in a bubblewrap sandbox that shows only their workspace, the toolchain and the GPU" OFF)
option(ARENA_AGENT_REDO "Run agents again even where a run of the same name already finished" OFF)
set(ARENA_AGENT_SCRIPT "" CACHE FILEPATH "For ARENA_AGENT=command: a shell script run as 'sh script <workspace> <prompt file>'")
set(ARENA_AGENT_USER_COMMAND "" CACHE STRING "For ARENA_AGENT=command: a command line with @WORKSPACE@ @PROMPT_FILE@ @MODEL@ @EFFORT@")
set(ARENA_TASK_FILTER "" CACHE STRING
    "Regex over task folder names: only matching tasks of each suite get tests (empty: every task)")
set(ARENA_FUZZ_SEED "" CACHE STRING "Seed for generated unseen configurations (empty: drawn once at first configure)")
set(ARENA_FLUSH_BYTES "0" CACHE STRING "Cache flush buffer bytes before every timed sample (0: max(2 x L2, 256 MiB))")
set(ARENA_PERF_BUDGET_S "15" CACHE STRING "Wall-time budget of one perf gate in seconds")
# Empty: configure picks the first Python that imports what the configured suites need
# (cmake/ArenaPython.cmake) and says which.
set(ARENA_PYTHON "" CACHE FILEPATH
    "Python for the Python suites (torch2hip: torch; triton2triton: torch and triton); empty: configure picks one")
# GPUs this host lists (nvidia-smi, else rocm-smi; `platform` nvidia or amd picks one, "" either).
function(arena_count_gpus platform out)
  set(_count 0)
  find_program(_arena_smi nvidia-smi)
  find_program(_arena_rocm_smi rocm-smi)
  if(platform MATCHES "^(nvidia|)$" AND _arena_smi)
    execute_process(COMMAND "${_arena_smi}" -L OUTPUT_VARIABLE _l RESULT_VARIABLE _rc ERROR_QUIET)
    if(_rc EQUAL 0)
      string(REGEX MATCHALL "GPU [0-9]+:" _gpus "${_l}")
      list(LENGTH _gpus _count)
    endif()
  endif()
  if(_count EQUAL 0 AND platform MATCHES "^(amd|)$" AND _arena_rocm_smi)
    execute_process(COMMAND "${_arena_rocm_smi}" --showid OUTPUT_VARIABLE _l RESULT_VARIABLE _rc ERROR_QUIET)
    if(_rc EQUAL 0)
      string(REGEX MATCHALL "GPU\\[[0-9]+\\]" _gpus "${_l}")
      list(REMOVE_DUPLICATES _gpus)
      list(LENGTH _gpus _count)
    endif()
  endif()
  set(${out} ${_count} PARENT_SCOPE)
endfunction()

# Each GPU's memory in MiB (a list, one per GPU nvidia-smi or rocm-smi lists; `platform` as
# arena_count_gpus). Empty where neither lists one.
function(arena_gpu_memory_mib platform out)
  set(_mib "")
  find_program(_arena_smi nvidia-smi)
  find_program(_arena_rocm_smi rocm-smi)
  if(platform MATCHES "^(nvidia|)$" AND _arena_smi)
    execute_process(COMMAND "${_arena_smi}" --query-gpu=memory.total --format=csv,noheader,nounits
                    OUTPUT_VARIABLE _l RESULT_VARIABLE _rc ERROR_QUIET)
    if(_rc EQUAL 0)
      string(REGEX MATCHALL "[0-9]+" _mib "${_l}")
    endif()
  endif()
  if(NOT _mib AND platform MATCHES "^(amd|)$" AND _arena_rocm_smi)
    execute_process(COMMAND "${_arena_rocm_smi}" --showmeminfo vram OUTPUT_VARIABLE _l RESULT_VARIABLE _rc ERROR_QUIET)
    if(_rc EQUAL 0)
      string(REGEX MATCHALL "VRAM Total Memory \\(B\\): *[0-9]+" _lines "${_l}")
      foreach(_line IN LISTS _lines)
        string(REGEX REPLACE ".*: *" "" _b "${_line}")
        math(EXPR _m "${_b} / 1048576")
        list(APPEND _mib ${_m})
      endforeach()
    endif()
  endif()
  set(${out} "${_mib}" PARENT_SCOPE)
endfunction()

# Correctness gates barely use their GPU (the oracle, inputs and comparison are host work), so
# as many share one GPU as the host's cores can feed: half the logical cores per GPU, at least 2
# (docs/DESIGN.md, "Scheduling"). Computed at the first configure; the cache keeps it.
if(NOT DEFINED CACHE{ARENA_PERF_SLOTS})
  cmake_host_system_information(RESULT _arena_cores QUERY NUMBER_OF_LOGICAL_CORES)
  arena_count_gpus("" _arena_gpus)
  if(_arena_gpus LESS 1)
    set(_arena_gpus 1)
  endif()
  math(EXPR _arena_slots "${_arena_cores} / (2 * ${_arena_gpus})")
  if(_arena_slots LESS 2)
    set(_arena_slots 2)
  endif()
  set(ARENA_PERF_SLOTS "${_arena_slots}" CACHE STRING
      "At most how many correctness gates share one GPU (default: half the host's cores per GPU, at least 2); its memory may allow fewer")
endif()
set(ARENA_HOST_THREADS "" CACHE STRING
    "Host threads of one correctness gate (inputs, oracle, comparison; empty: the logical cores / (ARENA_PERF_SLOTS x GPUs), at least 1)")
set(ARENA_GPU_MEMORY_UNIT_GB "2" CACHE STRING
    "GiB of GPU memory per resource unit: each GPU offers its memory in such units, a correctness gate asks for its estimated peak")
set(ARENA_GPU_MEMORY_GB "" CACHE STRING
    "GiB of memory per GPU for the resource spec (empty: nvidia-smi/rocm-smi at configure; set it where configure sees no GPU, or below the GPU's memory where gates run out of it)")
option(ARENA_ORACLE_CACHE
       "Keep the host oracle's outputs in <build>/arena/oracle_cache, checked before use, so repeated correctness gates run no oracle" ON)
set(ARENA_ORACLE_CACHE_GB "auto" CACHE STRING "Most disk the oracle cache may take, in GB (outputs beyond it are used, not kept); auto: a quarter of the build tree's free disk at configure, 4 to 256")
set(ARENA_PERF_SCHEDULE "exclusive" CACHE STRING
    "How a perf gate holds its GPU: exclusive (all its slots; correctness gates keep the other GPUs and the host), split (ARENA_PERF_GPUS GPUs only time, one perf gate each, the others only run correctness gates; needs 2 GPUs or more), shared (one perf gate per GPU beside its correctness gates, which keep off the device while it times: harness/src/gpu_lock.h), serial (RUN_SERIAL: nothing else on the machine)")
set_property(CACHE ARENA_PERF_SCHEDULE PROPERTY STRINGS exclusive split shared serial)
set(ARENA_PERF_GPUS "0" CACHE STRING
    "With ARENA_PERF_SCHEDULE=split: how many GPUs (the last ones) time perf gates; 0: half of them, rounded down, at least 1")
option(ARENA_PROFILE "Add <task>/profile: candidate and baseline under Nsight Compute, their bottleneck classes in the scores" OFF)
option(ARENA_SELFTEST "Generate the task-validation tests (label selftest): baseline and solution vs oracle, solution faster" ON)
