# cmake -P script: runs one agent on one task (docs/agents.md).
#
#   cmake -DARGS_FILE=<build>/arena/kernels/<suite>/<task>/agent_args.cmake -P ArenaAgent.cmake
#
# The args file (written per task by cmake/ArenaTasks.cmake) sets the task's folders, its
# suite's descriptor, the agent settings and the harness tools. This script creates
# <RUN_DIR>/workspace with only what the agent may see (the candidate to edit, the public
# spec, the statement, the rendered prompt, check.sh and profile.sh from cmake/agent/*.in)
# and <RUN_DIR>/tools with the harness pieces those need, then runs the agent's adapter command
# through arena-run-agent (deadline, optional sandbox: cmake/ArenaSandbox.cmake), which takes
# only the candidate file into <RUN_DIR>/candidate/, lists every other change and writes
# <RUN_DIR>/agent.json (an AgentResult of harness/common/result_schema.h), copied to
# RESULT_FILE where arena-score reads it; transcripts go to <RUN_DIR>/logs/, with checks.jsonl,
# the record of every check.sh / profile.sh call (docs/DESIGN.md, "Agent trajectories"), and
# beside RESULT_FILE go copies of those, the start file and the candidate taken (agent_*), which
# arena-score keeps with the run. Re-running with
# an existing agent.json resumes (skips) unless REDO is on: the copy then says resumed, with
# this run's times. The agent's own success or failure does not fail this step: the gates
# judge whatever it left.
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/ArenaSuite.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/ArenaSandbox.cmake")

if(NOT DEFINED ARGS_FILE OR NOT EXISTS "${ARGS_FILE}")
  message(FATAL_ERROR "ArenaAgent: -DARGS_FILE=<agent_args.cmake> is required (got '${ARGS_FILE}')")
endif()
include("${ARGS_FILE}")
foreach(_v TASK_DIR TASK_ID RUN_DIR RESULT_FILE AGENT AGENTS_DIR SUITE_DESCRIPTOR SUITE_PROMPT TIMEOUT_S CANDIDATE_FILE START_FILE
           KERNELS_DIR TOOLCHAIN COMPILE_SCRIPT HARNESS_INCLUDE SPEC_TOOL RUN_AGENT_TOOL DEVICE_INFO_TOOL CORRECT_TOOL
           PERF_TOOL DEVICE_LIB)
  if(NOT DEFINED ${_v} OR "${${_v}}" STREQUAL "")
    message(FATAL_ERROR "ArenaAgent: ${ARGS_FILE} does not set ${_v}")
  endif()
endforeach()
foreach(_v SUITES_DIR MODEL EFFORT SANDBOX REDO AGENT_SCRIPT USER_COMMAND BASELINE_FILE TORCH_COMPILE PYTHON PY_HOST_DIR TOOLS_LIB
           WORKER_TOOL WORKER_LIB PROFILE_TOOL PROFILE_SCRIPT STATEMENT SOLUTION_FILE PACKAGE PACKAGE_VERSION PACKAGE_MODULES)
  if(NOT DEFINED ${_v})
    set(${_v} "")
  endif()
endforeach()

set(_ws "${RUN_DIR}/workspace")
set(_tools "${RUN_DIR}/tools")
set(_logs "${RUN_DIR}/logs")
set(_result "${RUN_DIR}/agent.json")

# The step's result where arena-score looks for it, and its measurements for CDash.
function(_arena_publish_agent_result json)
  string(JSON _status GET "${json}" agent_status)
  string(JSON _secs GET "${json}" seconds)
  get_filename_component(_dir "${RESULT_FILE}" DIRECTORY)
  file(MAKE_DIRECTORY "${_dir}")
  file(WRITE "${RESULT_FILE}.tmp" "${json}\n")
  file(RENAME "${RESULT_FILE}.tmp" "${RESULT_FILE}")
  message("<CTestMeasurement type=\"text/string\" name=\"agent_status\">${_status}</CTestMeasurement>")
  message("<CTestMeasurement type=\"numeric/double\" name=\"agent_seconds\">${_secs}</CTestMeasurement>")
  # The agent's trail, beside its result: the check log, its transcript, where it started and
  # what it left (arena-score reads them from there; docs/DESIGN.md, "Agent trajectories").
  get_filename_component(_ext "${CANDIDATE_FILE}" LAST_EXT)
  foreach(_pair "${_logs}/checks.jsonl;agent_checks.jsonl" "${_logs}/stdout.log;agent_stdout.log"
                "${_logs}/stderr.log;agent_stderr.log" "${START_FILE};agent_start${_ext}"
                "${RUN_DIR}/candidate/${CANDIDATE_FILE};agent_candidate${_ext}")
    list(GET _pair 0 _from)
    list(GET _pair 1 _to)
    file(REMOVE "${_dir}/${_to}")
    if(EXISTS "${_from}" AND NOT IS_DIRECTORY "${_from}")
      file(COPY_FILE "${_from}" "${_dir}/${_to}")
    endif()
  endforeach()
  file(REMOVE_RECURSE "${_dir}/agent_checks")  # the candidate as each check saw it (checks.jsonl names them)
  if(IS_DIRECTORY "${_logs}/checks")
    file(COPY "${_logs}/checks/" DESTINATION "${_dir}/agent_checks")
  endif()
endfunction()

if(EXISTS "${_result}" AND NOT REDO)
  file(READ "${_result}" _prev)
  string(JSON _status ERROR_VARIABLE _old GET "${_prev}" agent_status)
  if(_old)
    message("${TASK_ID}: ${_result} is not a result this KernelArena reads (${_old}); running the agent again")
  else()
    message("${TASK_ID}: agent ${AGENT} already ran (status ${_status}); resuming from ${_result} (set REDO to run again)")
    # This run's times, so that arena-score takes the result as part of this run.
    string(TIMESTAMP _now "%Y-%m-%dT%H:%M:%SZ" UTC)
    string(JSON _prev SET "${_prev}" started "\"${_now}\"")
    string(JSON _prev SET "${_prev}" finished "\"${_now}\"")
    string(JSON _prev SET "${_prev}" resumed true)
    _arena_publish_agent_result("${_prev}")
    return()
  endif()
endif()

# --- a fresh workspace and toolbox ---------------------------------------------------
file(REMOVE_RECURSE "${_ws}" "${_tools}" "${_logs}" "${RUN_DIR}/candidate" "${_result}" "${RESULT_FILE}")
file(MAKE_DIRECTORY "${_ws}" "${_tools}" "${_logs}" "${RUN_DIR}/candidate" "${_tools}/task")
if(NOT STATEMENT)  # the task's statement (arena_add_task's README, else the task folder's)
  set(STATEMENT "${TASK_DIR}/README.md")
endif()

# The suite's descriptor, read as the toolbox sees the task: its built libraries and baseline
# beside the tools ($T), its folder's files in $T/task; check.sh and profile.sh set T.
set(ARENA_TASK_DIR "$T/task")
set(ARENA_TASK_BASELINE "")
if(BASELINE_FILE)
  get_filename_component(_name "${BASELINE_FILE}" NAME)
  set(ARENA_TASK_BASELINE "$T/${_name}")
endif()
set(ARENA_TASK_KERNELS "$T")
set(ARENA_TASK_TORCH_COMPILE "${TORCH_COMPILE}")
string(REPLACE "," ";" ARENA_TASK_PACKAGE_MODULES "${PACKAGE_MODULES}")
set(ARENA_CMAKE cmake)
set(ARENA_PY_HOST "$T")
set(ARENA_TOOLCHAIN "$T/arena_toolchain.cmake")
set(ARENA_COMPILE_SCRIPT "$T/ArenaCompileKernel.cmake")

# The runners start their workers from beside themselves (arena-worker, libarena_tools.so).
foreach(_f CORRECT_TOOL PERF_TOOL DEVICE_LIB COMPILE_SCRIPT WORKER_TOOL PROFILE_TOOL PROFILE_SCRIPT BASELINE_FILE)
  if(${_f})
    file(COPY "${${_f}}" DESTINATION "${_tools}")
  endif()
endforeach()
foreach(_lib baseline.so reference.so)  # the task's libraries built with the project
  if(EXISTS "${KERNELS_DIR}/${_lib}")
    file(COPY "${KERNELS_DIR}/${_lib}" DESTINATION "${_tools}")
  endif()
endforeach()
set(_py_prefixes "")
set(_python_args "")
if(PYTHON)
  # The interpreter itself (not a launcher shim) and its installation, which a sandboxed
  # agent sees read-only like the system; the Python host serves Python kernels and oracles.
  execute_process(COMMAND "${PYTHON}" -c "import sys; print(sys.executable); print(sys.prefix); print(sys.base_prefix)"
                  OUTPUT_VARIABLE _py_info RESULT_VARIABLE _rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${TASK_ID}: cannot run the Python for its gates (${PYTHON})")
  endif()
  string(REPLACE "\n" ";" _py_info "${_py_info}")
  list(GET _py_info 0 PYTHON)
  list(SUBLIST _py_info 1 -1 _py_prefixes)
  list(REMOVE_DUPLICATES _py_prefixes)
  file(GLOB _py "${PY_HOST_DIR}/*.py")
  foreach(_f IN LISTS _py TOOLS_LIB WORKER_LIB)
    if(_f)
      file(COPY "${_f}" DESTINATION "${_tools}")
    endif()
  endforeach()
  set(_python_args --python "${PYTHON}" --py-host "$T/arena_host.py")
endif()
set(ARENA_PYTHON "${PYTHON}")
set(ARENA_SUITES_DIR "${SUITES_DIR}")
arena_read_suite("${SUITE_DESCRIPTOR}")
if((ARENA_SUITE_RUNNER STREQUAL "python" OR ARENA_SUITE_PROFILE_RUNNER STREQUAL "python") AND NOT (PYTHON AND TOOLS_LIB))
  message(FATAL_ERROR "ArenaAgent: ${ARGS_FILE} must set PYTHON and TOOLS_LIB: ${SUITE_DESCRIPTOR} runs the Python host")
endif()

file(COPY "${HARNESS_INCLUDE}/" DESTINATION "${_tools}/include")
# The same compile command as the gates, with the headers taken from the toolbox (the
# source tree is not visible inside the sandbox).
file(READ "${TOOLCHAIN}" _toolchain)
string(REPLACE "${HARNESS_INCLUDE}" "${_tools}/include" _toolchain "${_toolchain}")
file(WRITE "${_tools}/arena_toolchain.cmake" "${_toolchain}")

execute_process(COMMAND "${SPEC_TOOL}" public "${TASK_DIR}/task.json" "${_ws}/task.json"
                RESULT_VARIABLE _rc ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${TASK_ID}: cannot write the public spec: ${_err}")
endif()
file(COPY "${_ws}/task.json" DESTINATION "${_tools}/task")
foreach(_f IN LISTS ARENA_SUITE_WORKSPACE_FILES)  # task files the agent works from (reference.py)
  file(COPY "${TASK_DIR}/${_f}" DESTINATION "${_ws}")
  file(COPY "${TASK_DIR}/${_f}" DESTINATION "${_tools}/task")
endforeach()
# A production baseline: the package's modules it imports, as installed, with the package's
# license, so the agent reads the kernel it must beat (docs/DESIGN.md, "Production baselines").
if(PACKAGE)
  if(NOT PYTHON)
    message(FATAL_ERROR "${TASK_ID}: its baseline comes from the package ${PACKAGE}, which needs the gates' Python")
  endif()
  execute_process(COMMAND "${PYTHON}" "${PY_HOST_DIR}/arena_package.py" copy --name "${PACKAGE}"
                          --version "${PACKAGE_VERSION}" --dest "${_ws}/package" ${ARENA_TASK_PACKAGE_MODULES}
                  RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${TASK_ID}: cannot copy its baseline's package source: ${_err}")
  endif()
endif()
configure_file("${STATEMENT}" "${_ws}/README.md" COPYONLY)
configure_file("${START_FILE}" "${_ws}/${CANDIDATE_FILE}" COPYONLY)

# --- check.sh and profile.sh: the gates' commands, as the toolbox runs them ------------
# Each word double-quoted for sh, so $T and $PWD expand and nothing else does.
function(_arena_shell_words out)
  set(_words "")
  foreach(_w IN LISTS ARGN)
    string(REGEX REPLACE "([\"\\\\`])" "\\\\\\1" _w "${_w}")
    list(APPEND _words "\"${_w}\"")
  endforeach()
  list(JOIN _words " " _joined)
  set(${out} "${_joined}" PARENT_SCOPE)
endfunction()
function(_arena_toolbox_runner runner tool out)
  if(runner STREQUAL "python")
    _arena_shell_words(_cmd "${PYTHON}" "$T/arena_host.py" "$T/libarena_tools.so" ${tool})
  else()
    _arena_shell_words(_cmd "$T/${tool}")
  endif()
  set(${out} "${_cmd}" PARENT_SCOPE)
endfunction()
set(_compiled "$PWD/.check/candidate${ARENA_SUITE_COMPILED_SUFFIX}")
arena_suite_command(_compile "${ARENA_SUITE_COMPILE}" SOURCE "$PWD/${CANDIDATE_FILE}" OUTPUT "${_compiled}" WHAT candidate)
_arena_shell_words(COMPILE ${_compile})
_arena_toolbox_runner(${ARENA_SUITE_RUNNER} arena-correct CORRECT)
_arena_toolbox_runner(${ARENA_SUITE_RUNNER} arena-perf PERF)
_arena_toolbox_runner(${ARENA_SUITE_PROFILE_RUNNER} arena-profile PROFILE_RUNNER)
_arena_shell_words(JUDGE --baseline "${ARENA_SUITE_BASELINE}" --reference "${ARENA_SUITE_REFERENCE}" ${_python_args})
_arena_shell_words(PERF_ARGS ${ARENA_SUITE_PERF_ARGS})
set(CANDIDATE_ARG "${ARENA_SUITE_KERNEL_PREFIX}${_compiled}")
set(BASE_SIDE "${ARENA_SUITE_BASELINE_SIDE}=${ARENA_SUITE_BASELINE}")
set(VERSUS "${ARENA_SUITE_VERSUS}")
set(TOOLS "${_tools}")
configure_file("${CMAKE_CURRENT_LIST_DIR}/agent/check.sh.in" "${_ws}/check.sh" @ONLY)
if(PROFILE_TOOL AND PROFILE_SCRIPT)
  configure_file("${CMAKE_CURRENT_LIST_DIR}/agent/profile.sh.in" "${_ws}/profile.sh" @ONLY)
endif()

# --- the prompt ----------------------------------------------------------------------
execute_process(COMMAND "${DEVICE_INFO_TOOL}" OUTPUT_VARIABLE _device OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0 OR _device STREQUAL "")
  set(_device "- (the device could not be described)")
endif()
file(READ "${STATEMENT}" _statement)
file(READ "${SUITE_PROMPT}" _prompt)
math(EXPR _minutes "${TIMEOUT_S} / 60")
foreach(_pair "TASK_ID;${TASK_ID}" "CANDIDATE_FILE;${CANDIDATE_FILE}" "DEVICE;${_device}"
              "TIMEOUT_MIN;${_minutes}")
  list(GET _pair 0 _k)
  list(SUBLIST _pair 1 -1 _v)
  list(JOIN _v ";" _v)
  string(REPLACE "@${_k}@" "${_v}" _prompt "${_prompt}")
endforeach()
string(REPLACE "@STATEMENT@" "${_statement}" _prompt "${_prompt}")
file(WRITE "${_ws}/prompt.md" "${_prompt}")

# --- the agent's command (agents/<name>/adapter.cmake) ------------------------------
set(ARENA_WORKSPACE "${_ws}")
set(ARENA_PROMPT_FILE "${_ws}/prompt.md")
set(ARENA_PROMPT_TEXT "${_prompt}")
set(ARENA_CANDIDATE_FILE "${CANDIDATE_FILE}")
set(ARENA_MODEL "${MODEL}")
set(ARENA_EFFORT "${EFFORT}")
set(ARENA_TASK_DIR "${TASK_DIR}")
set(ARENA_SOLUTION_FILE "${SOLUTION_FILE}")
set(ARENA_TOOLS_DIR "${_tools}")
set(ARENA_AGENT_SCRIPT "${AGENT_SCRIPT}")
set(ARENA_AGENT_USER_COMMAND "${USER_COMMAND}")
set(ARENA_AGENT_COMMAND "")
set(ARENA_AGENT_ENV "")
set(ARENA_AGENT_CONFIG_DIRS "")
set(ARENA_AGENT_TRUSTED FALSE)
if(NOT EXISTS "${AGENTS_DIR}/${AGENT}/adapter.cmake")
  message(FATAL_ERROR "${TASK_ID}: no agent adapter '${AGENT}' (looked for ${AGENTS_DIR}/${AGENT}/adapter.cmake)")
endif()
include("${AGENTS_DIR}/${AGENT}/adapter.cmake")
if(NOT ARENA_AGENT_COMMAND)
  message(FATAL_ERROR "${TASK_ID}: the ${AGENT} adapter set no ARENA_AGENT_COMMAND")
endif()

# The GPU CTest gave this test is the only one the agent sees; inside, it is device 0.
set(_env CTEST_RESOURCE_GROUP_COUNT=0 ${ARENA_AGENT_ENV})
if(DEFINED ENV{CTEST_RESOURCE_GROUP_0_GPUS} AND "$ENV{CTEST_RESOURCE_GROUP_0_GPUS}" MATCHES "id:([0-9]+)")
  list(APPEND _env "CUDA_VISIBLE_DEVICES=${CMAKE_MATCH_1}" "HIP_VISIBLE_DEVICES=${CMAKE_MATCH_1}")
endif()
set(_run_args "")
foreach(_e IN LISTS _env)
  list(APPEND _run_args --env "${_e}")
endforeach()
set(_cmd ${ARENA_AGENT_COMMAND})
set(_sandboxed FALSE)
if(SANDBOX AND NOT ARENA_AGENT_TRUSTED)
  arena_sandbox_command(_cmd WORKSPACE "${_ws}" TOOLS "${_tools}" READ_ONLY ${_py_prefixes}
                        CONFIG_DIRS ${ARENA_AGENT_CONFIG_DIRS} COMMAND ${ARENA_AGENT_COMMAND})
  set(_sandboxed TRUE)
  list(APPEND _run_args --sandboxed)
endif()

# --- run it: arena-run-agent takes the candidate and writes agent.json -----------------
message("${TASK_ID}: running agent ${AGENT} (timeout ${TIMEOUT_S} s, sandbox ${_sandboxed}) in ${_ws}")
execute_process(
  COMMAND "${RUN_AGENT_TOOL}" --timeout-s "${TIMEOUT_S}" --log-dir "${_logs}" --workdir "${_ws}" --result "${_result}"
          --candidate "${CANDIDATE_FILE}" --take-to "${RUN_DIR}/candidate" --record "agent=${AGENT}"
          --record "task=${TASK_ID}" --record "model=${MODEL}" --check-log "${_ws}/.check/log.fifo" ${_run_args}
          -- ${_cmd}
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0 OR NOT EXISTS "${_result}")
  message(FATAL_ERROR "${TASK_ID}: the agent runner failed (exit ${_rc})")
endif()
file(READ "${_result}" _json)
_arena_publish_agent_result("${_json}")
