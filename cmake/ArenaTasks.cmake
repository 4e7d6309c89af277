# Task -> CTest family generation (DESIGN §5). At configure time every task.json is
# validated by arena-spec (a small C++ tool built on the spot from the harness's own spec
# loader), which writes a manifest; each task then gets its kernel libraries and gates:
#
#   <suite>/<task>/compile         compiles the candidate            sets up   <id>/compiled
#   <suite>/<task>/correct_seen    candidate vs oracle, seen configs needs compiled, sets up <id>/correct
#   <suite>/<task>/correct_unseen  unseen + generated configs         needs compiled, sets up <id>/correct
#   <suite>/<task>/perf            baseline vs candidate timing       needs compiled + correct

set(ARENA_GATE_RESULTS_DIR "${CMAKE_BINARY_DIR}/arena/results")
set(ARENA_KERNELS_DIR "${CMAKE_BINARY_DIR}/arena/kernels")
set(ARENA_COMPILE_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/ArenaCompileKernel.cmake")

if(ARENA_FUZZ_SEED STREQUAL "")
  string(RANDOM LENGTH 9 ALPHABET "0123456789" _seed)
  string(REGEX REPLACE "^0+" "" _seed "1${_seed}")
  set(ARENA_FUZZ_SEED "${_seed}" CACHE STRING
      "Seed for generated unseen configurations (empty: drawn once at first configure)" FORCE)
endif()

# Builds the configure-time spec checker from the harness's own loader (no second parser).
function(_arena_spec_tool out)
  set(_src_dir "${CMAKE_SOURCE_DIR}/harness/src")
  set(_sources "${CMAKE_SOURCE_DIR}/harness/tools/arena_spec.cpp" "${_src_dir}/task_spec.cpp"
               "${_src_dir}/expr.cpp" "${_src_dir}/dtype.cpp")
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
    get_target_property(_json_inc nlohmann_json::nlohmann_json INTERFACE_INCLUDE_DIRECTORIES)
    set(_inc_flags "")
    foreach(_d IN LISTS _json_inc)
      list(APPEND _inc_flags "-I${_d}")
    endforeach()
    message(STATUS "Building the task spec checker")
    execute_process(COMMAND "${CMAKE_CXX_COMPILER}" -std=c++17 -O1 -I "${_src_dir}" ${_inc_flags}
                            ${_sources} -o "${_exe}"
                    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "Could not build the task spec checker:\n${_out}${_err}")
    endif()
  endif()
  set(${out} "${_exe}" PARENT_SCOPE)
endfunction()

# `start` is what an agent starts from: the task's baseline.hip, or torch2hip's ABI skeleton.
function(_arena_candidate_source key start out)
  set(_dir "${${key}_DIR}")
  if(ARENA_CANDIDATE STREQUAL "baseline")
    set(${out} "${start}" PARENT_SCOPE)
  elseif(ARENA_CANDIDATE STREQUAL "solution")
    get_filename_component(_ext "${start}" LAST_EXT)  # .hip, or .py for Triton
    set(${out} "${_dir}/solution${_ext}" PARENT_SCOPE)
  else()
    set(_file "${ARENA_CANDIDATE}/${${key}_SUITE}/${${key}_NAME}/${${key}_CANDIDATE_FILE}")
    if(NOT EXISTS "${_file}" AND ARENA_CANDIDATE_FALLBACK STREQUAL "baseline")
      set(_file "${start}")
    endif()
    set(${out} "${_file}" PARENT_SCOPE)
  endif()
endfunction()

# Resource spec for `ctest --resource-spec-file`: one entry per GPU, ARENA_PERF_SLOTS slots each.
function(_arena_write_resource_spec)
  set(_count 0)
  find_program(_smi nvidia-smi)
  find_program(_rocm_smi rocm-smi)
  if(ARENA_PLATFORM STREQUAL "nvidia" AND _smi)
    execute_process(COMMAND "${_smi}" -L OUTPUT_VARIABLE _l RESULT_VARIABLE _rc ERROR_QUIET)
    if(_rc EQUAL 0)
      string(REGEX MATCHALL "GPU [0-9]+:" _gpus "${_l}")
      list(LENGTH _gpus _count)
    endif()
  elseif(ARENA_PLATFORM STREQUAL "amd" AND _rocm_smi)
    execute_process(COMMAND "${_rocm_smi}" --showid OUTPUT_VARIABLE _l RESULT_VARIABLE _rc ERROR_QUIET)
    if(_rc EQUAL 0)
      string(REGEX MATCHALL "GPU\\[[0-9]+\\]" _gpus "${_l}")
      list(REMOVE_DUPLICATES _gpus)
      list(LENGTH _gpus _count)
    endif()
  endif()
  if(_count EQUAL 0)
    set(_count 1)  # no GPU seen: GPU gates skip, but the spec must still be valid
  endif()
  set(_entries "")
  math(EXPR _last "${_count} - 1")
  foreach(_i RANGE ${_last})
    list(APPEND _entries "{\"id\": \"${_i}\", \"slots\": ${ARENA_PERF_SLOTS}}")
  endforeach()
  list(JOIN _entries ", " _joined)
  file(WRITE "${CMAKE_BINARY_DIR}/arena_resources.json"
       "{\"version\": {\"major\": 1, \"minor\": 0}, \"local\": [{\"gpus\": [${_joined}]}]}\n")
endfunction()

# With an agent selected: <id>/agent runs it into <build>/arena/<run>/<id>/ and the
# candidate becomes what it left there (cmake/ArenaAgent.cmake).
function(_arena_add_agent_test id key start candidate_var)
  set(run_dir "${CMAKE_BINARY_DIR}/arena/${ARENA_RUN_NAME}/${id}")
  set(file "${${key}_CANDIDATE_FILE}")
  set(${candidate_var} "${run_dir}/candidate/${file}" PARENT_SCOPE)
  math(EXPR _timeout "${ARENA_AGENT_TIMEOUT_S} + 600")
  add_test(NAME ${id}/agent
    COMMAND "${CMAKE_COMMAND}"
      "-DTASK_DIR=${${key}_DIR}" "-DTASK_ID=${id}" "-DRUN_DIR=${run_dir}" "-DAGENT=${ARENA_AGENT}"
      "-DAGENTS_DIR=${CMAKE_SOURCE_DIR}/agents" "-DSUITE_PROMPT=${CMAKE_SOURCE_DIR}/suites/${${key}_SUITE}/prompt.md"
      "-DTIMEOUT_S=${ARENA_AGENT_TIMEOUT_S}" "-DCANDIDATE_FILE=${file}" "-DKERNELS_DIR=${ARENA_KERNELS_DIR}/${id}"
      "-DTOOLCHAIN=${ARENA_TOOLCHAIN_FILE}" "-DCOMPILE_SCRIPT=${ARENA_COMPILE_SCRIPT}"
      "-DHARNESS_INCLUDE=${ARENA_HARNESS_INCLUDE}" "-DSPEC_TOOL=$<TARGET_FILE:arena-spec>"
      "-DRUN_AGENT_TOOL=$<TARGET_FILE:arena-run-agent>" "-DDEVICE_INFO_TOOL=$<TARGET_FILE:arena-device-info>"
      "-DCORRECT_TOOL=$<TARGET_FILE:arena-correct>" "-DPERF_TOOL=$<TARGET_FILE:arena-perf>"
      "-DDEVICE_LIB=$<TARGET_FILE:arena_device>" "-DMODEL=${ARENA_AGENT_MODEL}" "-DEFFORT=${ARENA_AGENT_EFFORT}"
      "-DSANDBOX=${ARENA_AGENT_SANDBOX}" "-DREDO=${ARENA_AGENT_REDO}" "-DAGENT_SCRIPT=${ARENA_AGENT_SCRIPT}"
      "-DUSER_COMMAND=${ARENA_AGENT_USER_COMMAND}" "-DSTART_FILE=${start}" "-DTORCH=${${key}_TORCH}" "-DTRITON=${${key}_TRITON}"
      "-DPYTHON=${ARENA_PYTHON}" "-DPY_HOST_DIR=${CMAKE_SOURCE_DIR}/harness/python"
      "-DTOOLS_LIB=$<TARGET_FILE:arena_tools>" "-DPROFILE_TOOL=$<TARGET_FILE:arena-profile>"
      "-DWORKER_TOOL=$<TARGET_FILE:arena-worker>"
      "-DPROFILE_SCRIPT=${CMAKE_SOURCE_DIR}/harness/tools/arena-profile.sh"
      -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/ArenaAgent.cmake")
  set_tests_properties(${id}/agent PROPERTIES
    LABELS "${${key}_SUITE};${${key}_CATEGORY};agent" FIXTURES_SETUP "${id}/agent"
    RESOURCE_GROUPS "gpus:1" TIMEOUT ${_timeout})
endfunction()

# Task validation (label selftest; not the suite's label, so suite runs leave it out): the
# baseline and the expert solution against the oracle on every configuration (seen, unseen,
# fuzz), and the solution confidently faster than the baseline. A task that fails does not ship.
function(_arena_add_selftests id key)
  set(prefix "selftest/${id}")
  set(kdir "${ARENA_KERNELS_DIR}/${id}")
  set(rdir "${ARENA_GATE_RESULTS_DIR}/selftest/${id}")
  set(labels "selftest;${${key}_CATEGORY}")
  if(NOT ${key}_HAS_REFERENCE OR NOT ${key}_HAS_SOLUTION)
    add_test(NAME ${prefix}/files
      COMMAND sh -c "echo '${id}: a task needs its oracle (reference.cpp or reference.py) and its solution (proof of headroom)'; exit 1")
    set_tests_properties(${prefix}/files PROPERTIES LABELS "${labels}")
    return()
  endif()
  set(correct_args --task "${${key}_DIR}/task.json" --baseline "${baseline}" ${ref_args} --set all
                   --fuzz-seed ${ARENA_FUZZ_SEED} ${ARENA_WORKER_ARGS})
  if(${key}_TRITON)
    add_test(NAME ${prefix}/baseline_correct
      COMMAND ${correct_cmd} ${correct_args} --candidate "${baseline}" --result "${rdir}/baseline_correct.json")
    set(first_check ${prefix}/baseline_correct)
  elseif(${key}_TORCH)
    # Eager PyTorch in the task's dtypes must itself meet the tolerances asked of candidates.
    add_test(NAME ${prefix}/eager_correct
      COMMAND ${correct_cmd} ${correct_args} --candidate "py:torch:eager_out:${${key}_DIR}"
              --result "${rdir}/eager_correct.json")
    set(first_check ${prefix}/eager_correct)
  else()
    add_test(NAME ${prefix}/baseline_correct
      COMMAND arena-correct ${correct_args} --candidate "${kdir}/baseline.so" --result "${rdir}/baseline_correct.json")
    set(first_check ${prefix}/baseline_correct)
  endif()
  if(${key}_TRITON)
    set(solution "${kdir}/solution.py")
    set(solution_arg "py:triton:kernel:${solution}")
    add_test(NAME ${prefix}/compile_solution
      COMMAND ${compile_cmd} "${${key}_DIR}/solution.py" "${solution}" --what "${id} solution"
              --result "${rdir}/compile_solution.json")
  else()
    set(solution "${kdir}/solution.so")
    set(solution_arg "${solution}")
    add_test(NAME ${prefix}/compile_solution
      COMMAND "${CMAKE_COMMAND}" "-DSOURCE=${${key}_DIR}/solution.hip" "-DOUTPUT=${solution}"
              "-DTOOLCHAIN=${ARENA_TOOLCHAIN_FILE}" "-DWHAT=${id} solution" "-DRESULT=${rdir}/compile_solution.json"
              -P "${ARENA_COMPILE_SCRIPT}")
  endif()
  add_test(NAME ${prefix}/solution_correct
    COMMAND ${correct_cmd} ${correct_args} --candidate "${solution_arg}" --result "${rdir}/solution_correct.json")
  add_test(NAME ${prefix}/solution_faster
    COMMAND ${perf_cmd} --task "${${key}_DIR}/task.json" --candidate "${solution_arg}" --baseline "${baseline}"
            ${ref_args} ${perf_refs} --budget-s ${ARENA_PERF_BUDGET_S} --flush-bytes ${ARENA_FLUSH_BYTES}
            --require-faster 1 --result "${rdir}/solution_faster.json" ${ARENA_WORKER_ARGS})
  set_tests_properties(${prefix}/compile_solution PROPERTIES
    LABELS "${labels}" FIXTURES_SETUP "${prefix}/solution" TIMEOUT 900)
  set_tests_properties(${first_check} ${prefix}/solution_correct PROPERTIES
    LABELS "${labels};gpu" RESOURCE_GROUPS "gpus:1" SKIP_RETURN_CODE 77 TIMEOUT 900)
  set_tests_properties(${prefix}/solution_correct PROPERTIES
    FIXTURES_REQUIRED "${prefix}/solution" FIXTURES_SETUP "${prefix}/solution_correct")
  math(EXPR _perf_timeout "${ARENA_PERF_BUDGET_S} * 3 + 420")
  set_tests_properties(${prefix}/solution_faster PROPERTIES
    LABELS "${labels};gpu" FIXTURES_REQUIRED "${prefix}/solution;${prefix}/solution_correct"
    RESOURCE_GROUPS "gpus:${ARENA_PERF_SLOTS}" RUN_SERIAL TRUE SKIP_RETURN_CODE 77 TIMEOUT ${_perf_timeout})
endfunction()

# Opt-in (ARENA_PROFILE): one launch of candidate and baseline each under Nsight Compute on
# the first seen configuration; the report's bottleneck classes become measurements.
function(_arena_add_profile_test id key candidate baseline host)
  # arena-profile.sh runs its runner through the shell: one string, each word quoted.
  set(runner "\"$<TARGET_FILE:arena-profile>\"")
  set(base_side "baseline=${baseline}")
  if(${key}_TORCH OR ${key}_TRITON)
    list(JOIN host "\" \"" runner)
    set(runner "\"${runner}\" arena-profile")
  endif()
  if(${key}_TORCH)
    set(base_side "torch_eager=${baseline}")
  endif()
  set(rdir "${ARENA_GATE_RESULTS_DIR}/${id}")
  add_test(NAME ${id}/profile
    COMMAND sh "${CMAKE_SOURCE_DIR}/harness/tools/arena-profile.sh" --runner "${runner}" --task "${${key}_DIR}/task.json"
            --out "${rdir}/profile" --result "${rdir}/profile.json" --title "${id}" --measurements
            --side "candidate=${candidate}" --side "${base_side}")
  set_tests_properties(${id}/profile PROPERTIES
    LABELS "${${key}_SUITE};${${key}_CATEGORY};profile;gpu" FIXTURES_REQUIRED "${id}/compiled;${id}/correct"
    RESOURCE_GROUPS "gpus:${ARENA_PERF_SLOTS}" SKIP_RETURN_CODE 77 TIMEOUT 600)
  if(ARENA_PERF_RUN_SERIAL)
    set_tests_properties(${id}/profile PROPERTIES RUN_SERIAL TRUE)
  endif()
endfunction()

# The task's host oracle (reference.cpp), built with the project; sets <out> to its runner arguments.
function(_arena_add_reference id key out)
  set(${out} "" PARENT_SCOPE)
  if(NOT ${key}_HAS_REFERENCE)
    return()
  endif()
  string(MAKE_C_IDENTIFIER "${${key}_SUITE}_${${key}_NAME}" tgt)
  set(kdir "${ARENA_KERNELS_DIR}/${id}")
  add_library(arena_reference_${tgt} MODULE "${${key}_DIR}/reference.cpp")
  target_include_directories(arena_reference_${tgt} PRIVATE "${ARENA_HARNESS_INCLUDE}")
  set_target_properties(arena_reference_${tgt} PROPERTIES
    PREFIX "" OUTPUT_NAME reference LIBRARY_OUTPUT_DIRECTORY "${kdir}" CXX_VISIBILITY_PRESET hidden)
  set(${out} --reference "${kdir}/reference.so" PARENT_SCOPE)
endfunction()

function(_arena_add_task id)
  string(REPLACE "/" "__" _k "${id}")
  set(key "ARENA_TASK_${_k}")
  set(suite "${${key}_SUITE}")
  set(name "${${key}_NAME}")
  set(dir "${${key}_DIR}")
  set(category "${${key}_CATEGORY}")
  set(kdir "${ARENA_KERNELS_DIR}/${id}")
  set(rdir "${ARENA_GATE_RESULTS_DIR}/${id}")
  string(MAKE_C_IDENTIFIER "${suite}_${name}" tgt)

  set(correct_cmd arena-correct)
  set(perf_cmd arena-perf)
  set(perf_refs "")
  set(ref_args "")
  set(compile_cmd "")
  # The Python host: runs the same runners (libarena_tools.so) with a Python oracle in process.
  set(host "${ARENA_PYTHON}" "${CMAKE_SOURCE_DIR}/harness/python/arena_host.py" "$<TARGET_FILE:arena_tools>")
  if(${key}_TRITON)
    # triton2triton: the kernels are Python modules of Triton kernels, recorded in Python
    # workers and replayed by native ones; the judge is the plain runner (the oracle is
    # reference.cpp). The compile gate checks the module's rules and copies it.
    set(start "${dir}/baseline.py")
    set(baseline "py:triton:kernel:${dir}/baseline.py")
    set(compile_cmd "${ARENA_PYTHON}" "${CMAKE_SOURCE_DIR}/harness/python/arena_check_triton.py")
    _arena_add_reference(${id} ${key} ref_args)
  elseif(${key}_TORCH)
    # torch2hip: the agent starts from an ABI skeleton; the reference model (reference.py)
    # is the oracle (float64) and the perf reference (eager, plus torch.compile), served to
    # the same runners by the Python host.
    set(start "${kdir}/skeleton.hip")
    file(MAKE_DIRECTORY "${kdir}")
    execute_process(COMMAND "${ARENA_SPEC_CHECKER}" skeleton "${dir}/task.json" "${start}"
                    RESULT_VARIABLE _rc ERROR_VARIABLE _err)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "${id}: cannot write the ABI skeleton: ${_err}")
    endif()
    set(correct_cmd ${host} arena-correct)
    set(perf_cmd ${host} arena-perf)
    set(baseline "py:torch:eager:${dir}")
    set(ref_args --reference "py:torch:oracle:${dir}")
    set(perf_refs --baseline-name "torch eager")
    if(${key}_TORCH_COMPILE)
      list(APPEND perf_refs --extra-reference "torch.compile=py:torch:compile:${dir}")
    endif()
  else()
    # Baseline: built with the project (it is trusted and also the perf reference).
    set(start "${dir}/baseline.hip")
    set(baseline "${kdir}/baseline.so")
    add_custom_command(
      OUTPUT "${kdir}/baseline.so"
      COMMAND "${CMAKE_COMMAND}" "-DSOURCE=${dir}/baseline.hip" "-DOUTPUT=${kdir}/baseline.so"
              "-DTOOLCHAIN=${ARENA_TOOLCHAIN_FILE}" "-DWHAT=${id} baseline" -P "${ARENA_COMPILE_SCRIPT}"
      DEPENDS "${dir}/baseline.hip" "${ARENA_COMPILE_SCRIPT}" "${ARENA_TOOLCHAIN_FILE}"
              "${ARENA_HARNESS_INCLUDE}/arena/arena_abi.h"
      COMMENT "Compiling ${id} baseline" VERBATIM)
    add_custom_target(arena_baseline_${tgt} ALL DEPENDS "${kdir}/baseline.so")
    _arena_add_reference(${id} ${key} ref_args)
  endif()

  _arena_candidate_source(${key} "${start}" candidate_src)
  set(candidate_lib "${kdir}/candidate.so")
  set(candidate_arg "${candidate_lib}")
  if(${key}_TRITON)
    set(candidate_lib "${kdir}/candidate.py")
    set(candidate_arg "py:triton:kernel:${candidate_lib}")
  endif()
  set(common_labels "${suite};${category}")
  set(compile_requires "")
  if(ARENA_AGENT)
    _arena_add_agent_test(${id} ${key} "${start}" candidate_src)
    set(compile_requires "${id}/agent")
  endif()

  if(compile_cmd)
    add_test(NAME ${id}/compile
      COMMAND ${compile_cmd} "${candidate_src}" "${candidate_lib}" --what "${id} candidate" --result "${rdir}/compile.json")
  else()
    add_test(NAME ${id}/compile
      COMMAND "${CMAKE_COMMAND}" "-DSOURCE=${candidate_src}" "-DOUTPUT=${candidate_lib}"
              "-DTOOLCHAIN=${ARENA_TOOLCHAIN_FILE}" "-DWHAT=${id} candidate" "-DRESULT=${rdir}/compile.json"
              -DCONFINE=ON -P "${ARENA_COMPILE_SCRIPT}")
  endif()
  set_tests_properties(${id}/compile PROPERTIES
    LABELS "${common_labels};compile" FIXTURES_SETUP "${id}/compiled" TIMEOUT 900)
  if(compile_requires)
    set_tests_properties(${id}/compile PROPERTIES FIXTURES_REQUIRED "${compile_requires}")
  endif()

  set(runner_args --task "${dir}/task.json" --candidate "${candidate_arg}" --baseline "${baseline}" ${ref_args}
                  ${ARENA_WORKER_ARGS})
  foreach(set_name seen unseen)
    add_test(NAME ${id}/correct_${set_name}
      COMMAND ${correct_cmd} ${runner_args} --set ${set_name} --fuzz-seed ${ARENA_FUZZ_SEED}
              --result "${rdir}/correct_${set_name}.json")
    set_tests_properties(${id}/correct_${set_name} PROPERTIES
      LABELS "${common_labels};correct_${set_name};gpu"
      FIXTURES_REQUIRED "${id}/compiled" FIXTURES_SETUP "${id}/correct"
      RESOURCE_GROUPS "gpus:1" SKIP_RETURN_CODE 77 TIMEOUT 600)
  endforeach()

  math(EXPR _perf_timeout "${ARENA_PERF_BUDGET_S} * 3 + 120")
  if(${key}_TORCH_COMPILE)
    math(EXPR _perf_timeout "${_perf_timeout} + 300")  # torch.compile compiles each seen configuration first
  endif()
  add_test(NAME ${id}/perf
    COMMAND ${perf_cmd} ${runner_args} ${perf_refs} --budget-s ${ARENA_PERF_BUDGET_S} --flush-bytes ${ARENA_FLUSH_BYTES}
            --result "${rdir}/perf.json" --gbench-out "${rdir}/perf.gbench.json")
  set_tests_properties(${id}/perf PROPERTIES
    LABELS "${common_labels};perf;gpu"
    FIXTURES_REQUIRED "${id}/compiled;${id}/correct"
    RESOURCE_GROUPS "gpus:${ARENA_PERF_SLOTS}" SKIP_RETURN_CODE 77 TIMEOUT ${_perf_timeout})
  if(ARENA_PERF_RUN_SERIAL)
    set_tests_properties(${id}/perf PROPERTIES RUN_SERIAL TRUE)
  endif()
  if(ARENA_PROFILE)
    _arena_add_profile_test(${id} ${key} "${candidate_arg}" "${baseline}" "${host}")
  endif()
  if(ARENA_SELFTEST)
    _arena_add_selftests(${id} ${key})
  endif()
endfunction()

# How every gate starts its workers (harness/src/gate_workers.h): the worker program, the
# Python for Python kernels, and the folders a confined worker may never read.
set(ARENA_WORKER_ARGS --worker "$<TARGET_FILE:arena-worker>" --tools-lib "$<TARGET_FILE:arena_tools>"
    --python "${ARENA_PYTHON}" --py-host "${CMAKE_SOURCE_DIR}/harness/python/arena_host.py"
    --protect "${CMAKE_SOURCE_DIR}:${CMAKE_BINARY_DIR}:${ARENA_TASKS_DIR}")

function(arena_add_all_tasks)
  file(GLOB _suite_dirs LIST_DIRECTORIES true "${ARENA_TASKS_DIR}/*")
  set(_specs "")
  foreach(_sd IN LISTS _suite_dirs)
    if(NOT IS_DIRECTORY "${_sd}")
      continue()
    endif()
    get_filename_component(_suite "${_sd}" NAME)
    if(ARENA_SUITES AND NOT _suite IN_LIST ARENA_SUITES)
      continue()
    endif()
    file(GLOB _found CONFIGURE_DEPENDS "${_sd}/*/task.json")
    list(APPEND _specs ${_found})
  endforeach()
  list(SORT _specs)
  foreach(_s IN LISTS _specs)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_s}")
  endforeach()
  if(NOT _specs)
    message(WARNING "No task.json under ${ARENA_TASKS_DIR}: no gates generated")
    return()
  endif()

  _arena_spec_tool(_checker)
  set(ARENA_SPEC_CHECKER "${_checker}")
  set(_manifest "${CMAKE_BINARY_DIR}/arena_tasks.cmake")
  execute_process(COMMAND "${_checker}" manifest "${_manifest}" ${_specs}
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    # Plain message() keeps each "file: field: what" on one line (FATAL_ERROR text is re-wrapped).
    message("${_err}${_out}")
    message(FATAL_ERROR "Invalid task spec (above): fix the file and field it names")
  endif()
  include("${_manifest}")
  foreach(_id IN LISTS ARENA_TASK_IDS)
    _arena_add_task(${_id})
  endforeach()
  _arena_write_resource_spec()
  list(LENGTH ARENA_TASK_IDS _n)
  message(STATUS "KernelArena: ${_n} task(s); candidate = ${ARENA_CANDIDATE}; fuzz seed in the build cache")
  set(ARENA_TASK_IDS "${ARENA_TASK_IDS}" PARENT_SCOPE)
endfunction()
