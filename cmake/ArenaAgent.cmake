# cmake -P script: runs one agent on one task (DESIGN §8).
#
# Creates <RUN_DIR>/workspace with only what the agent may see (the candidate to edit, the
# public spec, the statement, the rendered prompt, a self-check), <RUN_DIR>/tools with the
# harness pieces the self-check needs, runs the agent's adapter command under a deadline
# (optionally in a bubblewrap sandbox), then takes only the declared candidate file into
# <RUN_DIR>/candidate/ and lists every other change. Results: <RUN_DIR>/agent.json,
# transcripts in <RUN_DIR>/logs/. Re-running with an existing agent.json resumes (skips)
# unless REDO is on. The agent's own success or failure does not fail this step: the gates
# judge whatever it left.
cmake_minimum_required(VERSION 3.25)

foreach(_v TASK_DIR TASK_ID RUN_DIR AGENT AGENTS_DIR SUITE_PROMPT TIMEOUT_S CANDIDATE_FILE KERNELS_DIR
           TOOLCHAIN COMPILE_SCRIPT HARNESS_INCLUDE SPEC_TOOL RUN_AGENT_TOOL DEVICE_INFO_TOOL CORRECT_TOOL
           PERF_TOOL DEVICE_LIB)
  if(NOT DEFINED ${_v} OR "${${_v}}" STREQUAL "")
    message(FATAL_ERROR "ArenaAgent: -D${_v}=... is required")
  endif()
endforeach()
foreach(_v MODEL EFFORT SANDBOX REDO AGENT_SCRIPT USER_COMMAND START_FILE TORCH TRITON PYTHON PY_HOST_DIR TOOLS_LIB WORKER_TOOL WORKER_LIB
          PROFILE_TOOL PROFILE_SCRIPT STATEMENT SOLUTION_FILE)
  if(NOT DEFINED ${_v})
    set(${_v} "")
  endif()
endforeach()

set(_ws "${RUN_DIR}/workspace")
set(_tools "${RUN_DIR}/tools")
set(_py_prefixes "")
set(_logs "${RUN_DIR}/logs")
set(_result "${RUN_DIR}/agent.json")

if(EXISTS "${_result}" AND NOT REDO)
  file(READ "${_result}" _prev)
  string(JSON _status GET "${_prev}" status)
  message("${TASK_ID}: agent ${AGENT} already ran (status ${_status}); resuming from ${_result} (set REDO to run again)")
  return()
endif()

# --- a fresh workspace and toolbox ---------------------------------------------------
file(REMOVE_RECURSE "${_ws}" "${_tools}" "${_logs}" "${RUN_DIR}/candidate" "${_result}")
file(MAKE_DIRECTORY "${_ws}" "${_tools}" "${_logs}" "${RUN_DIR}/candidate")

if(NOT START_FILE)
  set(START_FILE "${TASK_DIR}/baseline.hip")
endif()
if(NOT STATEMENT)  # the task's statement (arena_add_task's README, else the task folder's)
  set(STATEMENT "${TASK_DIR}/README.md")
endif()
# The runners start their workers from beside themselves (arena-worker, libarena_tools.so).
file(COPY "${CORRECT_TOOL}" "${PERF_TOOL}" "${DEVICE_LIB}" "${COMPILE_SCRIPT}" DESTINATION "${_tools}")
if(WORKER_TOOL)
  file(COPY "${WORKER_TOOL}" DESTINATION "${_tools}")
endif()
set(_worker_args "")
if(PROFILE_TOOL AND PROFILE_SCRIPT)  # profile.sh (callers that predate it pass neither)
  file(COPY "${PROFILE_TOOL}" "${PROFILE_SCRIPT}" DESTINATION "${_tools}")
endif()
set(_profile_runner "\"$T/arena-profile\"")
set(_compile "cmake -DSOURCE=\"$PWD/${CANDIDATE_FILE}\" -DOUTPUT=\"$PWD/.check/candidate.so\" -DTOOLCHAIN=\"$T/arena_toolchain.cmake\" -DWHAT=candidate -P \"$T/ArenaCompileKernel.cmake\"")
set(_candidate_arg ".check/candidate.so")
if(TORCH OR TRITON)
  # torch2hip and triton2triton: the runners come as libarena_tools.so, run by the Python
  # host, which serves the Python kernels (the reference model, Triton modules).
  foreach(_v PYTHON PY_HOST_DIR TOOLS_LIB)
    if(NOT ${_v})
      message(FATAL_ERROR "ArenaAgent: -D${_v}=... is required for a task with Python kernels")
    endif()
  endforeach()
  # The interpreter itself (not a launcher shim) and its installation, which a sandboxed
  # agent sees read-only like the system.
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
  file(COPY ${_py} "${TOOLS_LIB}" DESTINATION "${_tools}")
  if(WORKER_LIB)
    file(COPY "${WORKER_LIB}" DESTINATION "${_tools}")
  endif()
  set(_runner "\"${PYTHON}\" \"$T/arena_host.py\" \"$T/libarena_tools.so\" ")
  set(_correct "${_runner}arena-correct")
  set(_perf "${_runner}arena-perf")
  set(_profile_runner "${_runner}arena-profile")
  # Python kernels run in Python workers the runners start.
  set(_worker_args "--python \"${PYTHON}\" --py-host \"$T/arena_host.py\"")
endif()
if(TORCH)
  # torch2hip: the reference model from a copy of the public spec and reference.py.
  file(COPY "${TASK_DIR}/reference.py" DESTINATION "${_tools}/task")
  file(COPY "${TASK_DIR}/reference.py" DESTINATION "${_ws}")
  set(_base_arg "--baseline py:torch:eager:$T/task")
  set(_ref_arg "--reference py:torch:oracle:$T/task")
  set(_perf_arg "--baseline-name 'torch eager' --extra-reference torch.compile=py:torch:compile:$T/task")
  set(_base_side "torch_eager=py:torch:eager:$T/task")
  set(_versus "eager PyTorch (and torch.compile)")
elseif(TRITON)
  # triton2triton: the candidate is a module of Triton kernels, checked by the same script
  # as its compile gate.
  file(COPY "${START_FILE}" "${KERNELS_DIR}/reference.so" DESTINATION "${_tools}")
  set(_compile "\"${PYTHON}\" \"$T/arena_check_triton.py\" \"$PWD/${CANDIDATE_FILE}\" \"$PWD/.check/candidate.py\" --what candidate")
  set(_candidate_arg "py:triton:kernel:$PWD/.check/candidate.py")
  set(_base_arg "--baseline py:triton:kernel:$T/baseline.py")
  set(_base_side "baseline=py:triton:kernel:$T/baseline.py")
  set(_ref_arg "--reference \"$T/reference.so\"")
  set(_perf_arg "")
  set(_versus "the baseline")
  # The judge is the plain runner (the oracle is native); the modules run in Python workers.
  set(_correct "\"$T/arena-correct\"")
  set(_perf "\"$T/arena-perf\"")
else()
  file(COPY "${KERNELS_DIR}/baseline.so" DESTINATION "${_tools}")
  set(_correct "\"$T/arena-correct\"")
  set(_perf "\"$T/arena-perf\"")
  set(_base_arg "--baseline \"$T/baseline.so\"")
  set(_base_side "baseline=$T/baseline.so")
  set(_ref_arg "")
  set(_perf_arg "")
  set(_versus "the baseline")
  if(EXISTS "${KERNELS_DIR}/reference.so")
    file(COPY "${KERNELS_DIR}/reference.so" DESTINATION "${_tools}")
    set(_ref_arg "--reference \"$T/reference.so\"")
  endif()
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
configure_file("${STATEMENT}" "${_ws}/README.md" COPYONLY)
if(TORCH)
  file(COPY "${_ws}/task.json" DESTINATION "${_tools}/task")
endif()
configure_file("${START_FILE}" "${_ws}/${CANDIDATE_FILE}" COPYONLY)
file(WRITE "${_ws}/check.sh"
"#!/bin/sh
# Self-check: compile ${CANDIDATE_FILE} as the judge does, check it on the seen
# configurations, and time it against ${_versus}.
set -e
T='${_tools}'
cd \"$(dirname \"$0\")\"
mkdir -p .check
export LD_LIBRARY_PATH=\"$T:$LD_LIBRARY_PATH\"
${_compile}
${_correct} --task task.json --candidate ${_candidate_arg} ${_base_arg} ${_ref_arg} ${_worker_args} --set seen --trials 2 --result .check/correct.json
${_perf} --task task.json --candidate ${_candidate_arg} ${_base_arg} ${_ref_arg} ${_perf_arg} ${_worker_args} --budget-s 5 --result .check/perf.json
")
if(PROFILE_TOOL AND PROFILE_SCRIPT)
file(WRITE "${_ws}/profile.sh"
"#!/bin/sh
# Profile: compile ${CANDIDATE_FILE} as the judge does, then launch it and ${_versus} once each
# under Nsight Compute on seen configuration I (default 0) and print a short report:
# duration, DRAM bandwidth and FLOP/s against the device's peaks, speed-of-light, occupancy,
# registers and shared memory, top stall reasons and a bottleneck class per side.
#   ./profile.sh [--config I]
set -e
T='${_tools}'
export T
cd \"$(dirname \"$0\")\"
config=0
case \"\${1:-}\" in
  --config) config=\"\${2:-}\" ;;
  '') ;;
  *) echo 'usage: ./profile.sh [--config I]' >&2; exit 2 ;;
esac
mkdir -p .check
export LD_LIBRARY_PATH=\"$T:$LD_LIBRARY_PATH\"
${_compile}
exec sh \"$T/arena-profile.sh\" --runner '${_profile_runner}' --task task.json --config \"$config\" --out .check/profile --title '${TASK_ID}' --side \"candidate=${_candidate_arg}\" --side \"${_base_side}\"
")
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

# --- what the workspace holds before the agent --------------------------------------
function(_arena_snapshot out)
  file(GLOB_RECURSE _files LIST_DIRECTORIES false RELATIVE "${_ws}" "${_ws}/*")
  set(_entries "")
  foreach(_f IN LISTS _files)
    if(_f MATCHES "^\\.check/")
      continue()  # the self-check's own outputs
    endif()
    file(SHA256 "${_ws}/${_f}" _h)
    list(APPEND _entries "${_f}=${_h}")
  endforeach()
  set(${out} "${_entries}" PARENT_SCOPE)
endfunction()
_arena_snapshot(_before)

# --- the agent's command -------------------------------------------------------------
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
set(_env_args "")
foreach(_e IN LISTS _env)
  list(APPEND _env_args --env "${_e}")
endforeach()

set(_sandboxed FALSE)
set(_cmd ${ARENA_AGENT_COMMAND})
if(SANDBOX AND NOT ARENA_AGENT_TRUSTED)
  find_program(_bwrap bwrap)
  if(NOT _bwrap)
    message(FATAL_ERROR "${TASK_ID}: the sandbox needs bubblewrap (Debian package bubblewrap)")
  endif()
  # The agent sees the system read-only, its workspace read-write, the toolbox read-only,
  # the GPU device nodes and its own configuration: not the source tree (unseen
  # configurations, oracles, solutions) and not the build tree (results, the fuzz seed).
  set(_box "${_bwrap}" --die-with-parent --unshare-pid --unshare-ipc --new-session
      --ro-bind /usr /usr --ro-bind /etc /etc --ro-bind-try /opt /opt
      --proc /proc --dev /dev --tmpfs /tmp)
  foreach(_l lib lib32 lib64 bin sbin)
    if(IS_SYMLINK "/${_l}")
      file(READ_SYMLINK "/${_l}" _target)
      list(APPEND _box --symlink "${_target}" "/${_l}")
    elseif(EXISTS "/${_l}")
      list(APPEND _box --ro-bind "/${_l}" "/${_l}")
    endif()
  endforeach()
  file(GLOB _gpu_nodes /dev/nvidia* /dev/kfd /dev/dri)
  foreach(_n IN LISTS _gpu_nodes)
    list(APPEND _box --dev-bind "${_n}" "${_n}")
  endforeach()
  list(APPEND _box --bind "${_ws}" "${_ws}" --ro-bind "${_tools}" "${_tools}")
  foreach(_p IN LISTS _py_prefixes)
    list(APPEND _box --ro-bind-try "${_p}" "${_p}")
  endforeach()
  foreach(_c IN LISTS ARENA_AGENT_CONFIG_DIRS)
    if(EXISTS "${_c}")
      list(APPEND _box --bind "${_c}" "${_c}")
    endif()
  endforeach()
  list(APPEND _box --chdir "${_ws}" --)
  set(_cmd ${_box} ${ARENA_AGENT_COMMAND})
  set(_sandboxed TRUE)
endif()

# --- run it --------------------------------------------------------------------------
message("${TASK_ID}: running agent ${AGENT} (timeout ${TIMEOUT_S} s, sandbox ${_sandboxed}) in ${_ws}")
execute_process(
  COMMAND "${RUN_AGENT_TOOL}" --timeout-s "${TIMEOUT_S}" --log-dir "${_logs}" --workdir "${_ws}"
          --result "${_logs}/run.json" ${_env_args} -- ${_cmd}
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0 OR NOT EXISTS "${_logs}/run.json")
  message(FATAL_ERROR "${TASK_ID}: the agent runner failed (exit ${_rc})")
endif()

# --- what changed, and what is taken -------------------------------------------------
_arena_snapshot(_after)
set(_before_names "${_before}")
list(TRANSFORM _before_names REPLACE "=[0-9a-f]+$" "")
set(_after_names "${_after}")
list(TRANSFORM _after_names REPLACE "=[0-9a-f]+$" "")
set(_changes "")
foreach(_e IN LISTS _after)
  if(NOT _e IN_LIST _before)
    string(REGEX REPLACE "=[0-9a-f]+$" "" _f "${_e}")
    if(_f IN_LIST _before_names)
      list(APPEND _changes "modified ${_f}")
    else()
      list(APPEND _changes "added ${_f}")
    endif()
  endif()
endforeach()
foreach(_f IN LISTS _before_names)
  if(NOT _f IN_LIST _after_names)
    list(APPEND _changes "deleted ${_f}")
  endif()
endforeach()

set(_taken FALSE)
if(EXISTS "${_ws}/${CANDIDATE_FILE}")
  configure_file("${_ws}/${CANDIDATE_FILE}" "${RUN_DIR}/candidate/${CANDIDATE_FILE}" COPYONLY)
  set(_taken TRUE)
endif()

file(READ "${_logs}/run.json" _run)
set(_json "${_run}")
string(JSON _json SET "${_json}" agent "\"${AGENT}\"")
string(JSON _json SET "${_json}" task "\"${TASK_ID}\"")
string(JSON _json SET "${_json}" model "\"${MODEL}\"")
if(_sandboxed)
  string(JSON _json SET "${_json}" sandboxed true)
else()
  string(JSON _json SET "${_json}" sandboxed false)
endif()
if(_taken)
  string(JSON _json SET "${_json}" candidate_taken true)
else()
  string(JSON _json SET "${_json}" candidate_taken false)
endif()
set(_ignored "[]")
set(_candidate_changed false)
set(_i 0)
foreach(_c IN LISTS _changes)
  if(_c STREQUAL "modified ${CANDIDATE_FILE}")
    set(_candidate_changed true)
    continue()
  endif()
  string(JSON _ignored SET "${_ignored}" ${_i} "\"${_c}\"")
  math(EXPR _i "${_i} + 1")
endforeach()
string(JSON _json SET "${_json}" candidate_changed ${_candidate_changed})
string(JSON _json SET "${_json}" ignored_changes "${_ignored}")
file(WRITE "${_result}.partial" "${_json}\n")
file(RENAME "${_result}.partial" "${_result}")

string(JSON _status GET "${_json}" status)
string(JSON _secs GET "${_json}" seconds)
message("${TASK_ID}: agent ${AGENT} ${_status} after ${_secs} s; candidate changed: ${_candidate_changed}")
if(_changes)
  foreach(_c IN LISTS _changes)
    if(NOT _c STREQUAL "modified ${CANDIDATE_FILE}")
      message("  ignored change (only ${CANDIDATE_FILE} is taken): ${_c}")
    endif()
  endforeach()
endif()
if(NOT _taken)
  message("  the agent left no ${CANDIDATE_FILE}: the compile gate will fail")
endif()
message("<CTestMeasurement type=\"text/string\" name=\"agent_status\">${_status}</CTestMeasurement>")
message("<CTestMeasurement type=\"numeric/double\" name=\"agent_seconds\">${_secs}</CTestMeasurement>")
