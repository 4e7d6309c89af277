# The settings of KernelArena's gates, as cache variables: read by this project's own build
# and by every project that uses the installed package (find_package(KernelArena)) or adds
# the source tree (add_subdirectory / FetchContent). README.md lists them.
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
set(ARENA_PERF_SLOTS "4" CACHE STRING "Resource slots per GPU: a perf gate takes them all, so it never shares a GPU")
option(ARENA_PERF_RUN_SERIAL "Run perf gates with nothing else running on the machine" ON)
option(ARENA_PROFILE "Add <task>/profile: candidate and baseline under Nsight Compute, their bottleneck classes in the scores" OFF)
option(ARENA_SELFTEST "Generate the task-validation tests (label selftest): baseline and solution vs oracle, solution faster" ON)
