# cmake -P test driver: runs cmake/ArenaAgent.cmake with a scripted agent on gelu_f16 and
# checks what it must have done. -DCASE=<name>, plus the tool and folder paths (see
# tests/agents/CMakeLists.txt).
cmake_minimum_required(VERSION 3.22)
set(run "${WORK_DIR}/${CASE}")
file(REMOVE_RECURSE "${run}" "${run}.result")
set(task "${SOURCE_DIR}/tasks/hip2hip/gelu_f16")
set(timeout 120)
set(sandbox OFF)
set(script "${SOURCE_DIR}/tests/agents/scripts/${CASE}.sh")
set(agent command)
set(task_id hip2hip/gelu_f16)
set(suite hip2hip)
set(start "${task}/baseline.hip")
set(task_args BASELINE_FILE "${task}/baseline.hip")
if(CASE STREQUAL "torch_workspace")
  # torch2hip: reference.py and the ABI skeleton in the workspace, the self-check through
  # the Python host (the SANDBOX setting comes from the test: on where bwrap exists).
  set(task_id torch2hip/swish_residual_f32)
  set(task "${SOURCE_DIR}/tasks/${task_id}")
  set(suite torch2hip)
  set(sandbox ${TORCH_SANDBOX})
  set(start "${TORCH_KERNELS_DIR}/skeleton.hip")
  set(task_args TORCH_COMPILE TRUE PYTHON "${PYTHON}" PY_HOST_DIR "${SOURCE_DIR}/harness/python" TOOLS_LIB "${TOOLS_LIB}")
  set(KERNELS_DIR "${TORCH_KERNELS_DIR}")
elseif(CASE STREQUAL "child_outlives_timeout")
  set(timeout 3)
elseif(CASE STREQUAL "probe_hidden_paths")
  set(sandbox ON)
  set(PROBE_SOLUTION "${task}/solution.hip")
  set(PROBE_SPEC "${task}/task.json")
  set(PROBE_CACHE "${BUILD_DIR}/CMakeCache.txt")
  set(PROBE_CHECK_LOG "${run}/logs/checks.jsonl")
  set(script "${WORK_DIR}/probe_hidden_paths.sh")
  configure_file("${SOURCE_DIR}/tests/agents/scripts/probe_hidden_paths.sh.in" "${script}" @ONLY)
elseif(CASE MATCHES "^(claude_code|codex)$")
  set(agent ${CASE})
  set(timeout 30)
endif()

# The driver reads its settings from an args file, as the <id>/agent tests do; extra
# NAME VALUE pairs override them.
function(run_driver)
  set(settings TASK_DIR "${task}" TASK_ID "${task_id}" RUN_DIR "${run}" RESULT_FILE "${run}.result/agent.json"
    AGENT "${agent}" AGENTS_DIR "${SOURCE_DIR}/agents"
    SUITE_DESCRIPTOR "${SOURCE_DIR}/suites/${suite}/suite.cmake" SUITE_PROMPT "${SOURCE_DIR}/suites/${suite}/prompt.md"
    TIMEOUT_S "${timeout}" CANDIDATE_FILE kernel.hip START_FILE "${start}" KERNELS_DIR "${KERNELS_DIR}"
    TOOLCHAIN "${TOOLCHAIN}" COMPILE_SCRIPT "${SOURCE_DIR}/cmake/ArenaCompileKernel.cmake"
    HARNESS_INCLUDE "${SOURCE_DIR}/harness/include" SPEC_TOOL "${SPEC_TOOL}" RUN_AGENT_TOOL "${RUN_AGENT_TOOL}"
    DEVICE_INFO_TOOL "${DEVICE_INFO_TOOL}" CORRECT_TOOL "${CORRECT_TOOL}" PERF_TOOL "${PERF_TOOL}" DEVICE_LIB "${DEVICE_LIB}"
    PROFILE_TOOL "${PROFILE_TOOL}" PROFILE_SCRIPT "${PROFILE_SCRIPT}" SANDBOX "${sandbox}" AGENT_SCRIPT "${script}"
    ${task_args} ${ARGN})
  set(text "")
  while(settings)
    list(POP_FRONT settings name value)
    string(APPEND text "set(${name} [==[${value}]==])\n")
  endwhile()
  file(WRITE "${WORK_DIR}/${CASE}.args.cmake" "${text}")
  execute_process(
    COMMAND "${CMAKE_COMMAND}" "-DARGS_FILE=${WORK_DIR}/${CASE}.args.cmake" -P "${SOURCE_DIR}/cmake/ArenaAgent.cmake"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${CASE}: the agent driver failed (exit ${rc})")
  endif()
  set(driver_output "${out}${err}" PARENT_SCOPE)
endfunction()

function(expect what)
  if(NOT (${ARGN}))
    message(FATAL_ERROR "${CASE}: expected ${what}")
  endif()
endfunction()

run_driver()
file(READ "${run}/agent.json" result)
string(JSON status GET "${result}" agent_status)
string(JSON changed GET "${result}" candidate_changed)
string(JSON ignored GET "${result}" ignored_changes)
if(EXISTS "${task}/baseline.hip")
  file(READ "${task}/baseline.hip" baseline_src)
endif()
file(READ "${run}/candidate/kernel.hip" candidate_src)
file(READ "${run}/workspace/prompt.md" prompt)
expect("a rendered prompt naming the task and the self-check" prompt MATCHES "${task_id}" AND prompt MATCHES "check.sh")
expect("no placeholder left in the prompt" NOT prompt MATCHES "@[A-Z_]+@")
file(READ "${run}/workspace/task.json" public_spec)
expect("a public spec without unseen configurations" NOT public_spec MATCHES "unseen" AND NOT public_spec MATCHES "fuzz")
expect("no solution in the workspace" NOT EXISTS "${run}/workspace/solution.hip" AND NOT EXISTS "${run}/workspace/reference.cpp")

# The step's result where arena-score reads it: the run's record in the result schema.
file(READ "${run}.result/agent.json" published)
string(JSON gate GET "${published}" gate)
string(JSON schema GET "${published}" schema_version)
string(JSON step_status GET "${published}" status)
string(JSON published_status GET "${published}" agent_status)
expect("the published result in the schema (gate ${gate}, schema_version ${schema}, status ${step_status})"
       gate MATCHES "^agent$" AND schema GREATER 0 AND step_status MATCHES "^passed$")  # MATCHES: `agent` is a variable here
expect("the published agent status to be the run's (${published_status} vs ${status})" published_status STREQUAL status)
expect("the agent's status measurement for CDash" driver_output MATCHES "name=\"agent_status\">${status}<")

if(CASE STREQUAL "improve")
  expect("a finished agent (got ${status})" status STREQUAL "finished")
  expect("the candidate changed" changed STREQUAL "ON" OR changed STREQUAL "true")
  expect("the taken candidate to hold the change" candidate_src MATCHES "const int block = 512;")
  # Resume: the same run name does not run the agent again...
  string(JSON first_started GET "${published}" started)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1.1)
  run_driver()
  expect("a resumed run" driver_output MATCHES "already ran")
  # ...but publishes its result again, marked resumed and stamped with this run's time, so
  # that arena-score takes it as part of this run.
  file(READ "${run}.result/agent.json" republished)
  string(JSON resumed GET "${republished}" resumed)
  string(JSON again_started GET "${republished}" started)
  expect("the resumed result marked resumed (got ${resumed})" resumed STREQUAL "ON" OR resumed STREQUAL "true")
  expect("the resumed result stamped anew (${first_started} then ${again_started})"
         NOT again_started STREQUAL first_started)
  # ...unless asked to.
  run_driver(REDO ON)
  expect("a fresh run with REDO" driver_output MATCHES "running agent")
elseif(CASE STREQUAL "break_compile")
  expect("the broken candidate taken as left" candidate_src MATCHES "this is not C\\+\\+ at all")
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DSOURCE=${run}/candidate/kernel.hip" "-DOUTPUT=${run}/candidate.so"
                          "-DTOOLCHAIN=${TOOLCHAIN}" -DWHAT=candidate -P "${SOURCE_DIR}/cmake/ArenaCompileKernel.cmake"
                  RESULT_VARIABLE crc OUTPUT_QUIET ERROR_VARIABLE cerr)
  expect("the compile gate to fail" NOT crc EQUAL 0 AND cerr MATCHES "compilation failed")
elseif(CASE STREQUAL "child_outlives_timeout")
  expect("a timed-out agent (got ${status})" status STREQUAL "timed_out")
  file(READ "${run}/workspace/child.pid" child)
  file(READ "${run}/workspace/agent.pid" parent)
  string(STRIP "${child}" child)
  string(STRIP "${parent}" parent)
  foreach(pid ${child} ${parent})
    # A zombie is dead too: only a running or sleeping process counts.
    execute_process(COMMAND ps -o stat= -p ${pid} OUTPUT_VARIABLE st OUTPUT_STRIP_TRAILING_WHITESPACE)
    expect("process ${pid} to be gone (state '${st}')" st MATCHES "^(Z.*)?$")
  endforeach()
  expect("the unchanged candidate taken" candidate_src STREQUAL baseline_src)
elseif(CASE STREQUAL "edit_other_files")
  expect("the candidate unchanged" changed STREQUAL "OFF" OR changed STREQUAL "false")
  foreach(c "modified README.md" "added notes.txt" "deleted check.sh")
    expect("'${c}' listed as ignored (got ${ignored})" ignored MATCHES "${c}")
  endforeach()
  expect("the changes reported in the output" driver_output MATCHES "ignored change")
elseif(CASE STREQUAL "probe_hidden_paths")
  file(READ "${run}/workspace/probe.txt" probe)
  message("probe: ${probe}")
  expect("the sandboxed agent to have run" status STREQUAL "finished")
  expect("the solution hidden" probe MATCHES "BLOCKED ${PROBE_SOLUTION}")
  expect("the full spec hidden" probe MATCHES "BLOCKED ${PROBE_SPEC}")
  expect("the build tree hidden" probe MATCHES "BLOCKED ${PROBE_CACHE}")
  file(READ "${run}/workspace/check.log" check_log)
  file(READ "${run}/workspace/check.rc" check_rc)
  string(STRIP "${check_rc}" check_rc)
  # 0 on a GPU machine; 77 (correctness gate skipped) without a GPU, after the compile step.
  expect("the self-check to compile inside the sandbox (exit ${check_rc}):\n${check_log}"
         check_log MATCHES "compiled in" AND check_rc MATCHES "^(0|77)$")
  # Both calls recorded by the runner outside the sandbox, and the record kept with the result.
  expect("the check log out of the agent's reach" probe MATCHES "NOWRITE ${PROBE_CHECK_LOG}")
  file(STRINGS "${PROBE_CHECK_LOG}" calls)
  list(LENGTH calls n_calls)
  expect("two recorded calls, check.sh then profile.sh (got ${calls})" n_calls EQUAL 2)
  list(GET calls 0 first)
  list(GET calls 1 second)
  string(JSON first_script GET "${first}" script)
  string(JSON first_compiled GET "${first}" compiled)
  string(JSON first_rc GET "${first}" exit)
  string(JSON second_script GET "${second}" script)
  expect("check.sh's call recorded as compiled with its exit status (${first})" first_script STREQUAL "check" AND
         first_compiled MATCHES "^(ON|true)$" AND first_rc STREQUAL check_rc)
  expect("profile.sh's call recorded (${second})" second_script STREQUAL "profile")
  expect("the check log kept beside the published result, with the candidate the check saw"
         EXISTS "${run}.result/agent_checks.jsonl" AND EXISTS "${run}.result/agent_checks/001-kernel.hip")
  file(READ "${run}/workspace/profile.log" profile_log)
  file(READ "${run}/workspace/profile.rc" profile_rc)
  string(STRIP "${profile_rc}" profile_rc)
  # 0 with a report on a GPU machine with Nsight Compute; 77, saying why, elsewhere.
  expect("profile.sh to run inside the sandbox (exit ${profile_rc}):\n${profile_log}"
         profile_log MATCHES "compiled in" AND
         ((profile_rc STREQUAL "0" AND profile_log MATCHES "bottleneck +[a-z/-]+-bound") OR
          (profile_rc STREQUAL "77" AND profile_log MATCHES "profile: no GPU here|not installed here")))
elseif(CASE STREQUAL "torch_workspace")
  file(READ "${run}/workspace/listing.txt" listing)
  file(READ "${TORCH_KERNELS_DIR}/skeleton.hip" skeleton)
  expect("reference.py in the workspace (got ${listing})" listing MATCHES "reference.py")
  expect("the candidate to start as the ABI skeleton" candidate_src STREQUAL skeleton)
  expect("the binding in the public spec" public_spec MATCHES "\"torch\"")
  expect("a prompt about translating reference.py" prompt MATCHES "reference.py" AND prompt MATCHES "torch.compile")
  foreach(f libarena_tools.so arena_host.py arena_torch.py task/reference.py task/task.json)
    expect("${f} in the toolbox" EXISTS "${run}/tools/${f}")
  endforeach()
  file(READ "${run}/tools/task/task.json" tool_spec)
  expect("only the public spec in the toolbox" NOT tool_spec MATCHES "unseen")
  file(READ "${run}/workspace/check.sh" check)
  expect("a self-check against eager PyTorch and torch.compile"
         check MATCHES "arena_host.py" AND check MATCHES "py:torch:oracle:" AND check MATCHES "torch.compile=py:torch:compile:")
  file(READ "${run}/workspace/check.log" check_log)
  file(READ "${run}/workspace/check.rc" check_rc)
  string(STRIP "${check_rc}" check_rc)
  # The skeleton compiles; then, without a GPU, the correctness step skips (77); with one, it
  # fails on the outputs the skeleton never writes.
  expect("the self-check to compile the skeleton, then skip without a GPU or fail on its outputs (exit ${check_rc}):\n${check_log}"
         check_log MATCHES "compiled in" AND ((check_rc STREQUAL "77" AND check_log MATCHES "needs a GPU") OR
                                              (check_rc STREQUAL "1" AND check_log MATCHES "mismatched")))
elseif(CASE MATCHES "^(claude_code|codex)$")
  # Offline here: the real CLI starts, fails to reach its service, and that is recorded.
  expect("a recorded failure (got ${status})" status STREQUAL "failed" OR status STREQUAL "timed_out")
  expect("the unchanged candidate taken" candidate_src STREQUAL baseline_src)
else()
  message(FATAL_ERROR "unknown case ${CASE}")
endif()
message("${CASE}: ok (agent ${status})")
