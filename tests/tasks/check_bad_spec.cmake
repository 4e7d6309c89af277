# One bad task.json among good ones (cmake -P, from tests/CMakeLists.txt): configure names its
# file and field, generates the good task's gates anyway, and gives the bad task a compile test
# that fails with the same message. The same for a spec that loads but that its suite's
# descriptor refuses (a Python model oracle that task.json does not bind with "torch").
#   -DSOURCE_DIR=<project> -DWORK_DIR=<scratch> -DPLATFORM=<nvidia|amd|none>
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/tasks/hip2hip")
file(COPY "${SOURCE_DIR}/tests/data/bad_tasks/hip2hip/bad_dtype" "${SOURCE_DIR}/tasks/hip2hip/avgpool_global_f16"
     DESTINATION "${WORK_DIR}/tasks/hip2hip")
# unbound: a copy of a task whose suite's oracle is reference.py, without its "torch" binding.
file(GLOB _model_tasks "${SOURCE_DIR}/tasks/torch2hip/*/task.json")
list(GET _model_tasks 0 _model_spec)
get_filename_component(_model_dir "${_model_spec}" DIRECTORY)
file(COPY "${_model_dir}/" DESTINATION "${WORK_DIR}/tasks/torch2hip/unbound")
file(READ "${_model_spec}" _spec)
string(JSON _spec REMOVE "${_spec}" torch)
string(JSON _spec SET "${_spec}" name "\"unbound\"")
file(WRITE "${WORK_DIR}/tasks/torch2hip/unbound/task.json" "${_spec}")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}/build"
                        "-DARENA_TASKS_DIR=${WORK_DIR}/tasks" -DARENA_BUILD_FRAMEWORK_TESTS=OFF
                        "-DARENA_HIP_PLATFORM=${PLATFORM}" -DARENA_SELFTEST=OFF
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(log "${out}${err}")
function(fail what)
  message(FATAL_ERROR "FAILED: ${what}\n${log}")
endfunction()
if(NOT rc EQUAL 0)
  fail("configure stopped on one bad task (exit ${rc})")
endif()
string(REGEX REPLACE "[ \n]+" " " flat "${log}")  # CMake wraps a warning's lines
string(FIND "${flat}" "bad_dtype/task.json: tensors[0].dtype: unknown dtype 'float16'" at)
if(at EQUAL -1)
  fail("configure did not name the bad spec's file and field")
endif()
execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" -N WORKING_DIRECTORY "${WORK_DIR}/build" OUTPUT_VARIABLE tests)
set(log "${tests}")
string(FIND "${tests}" "hip2hip/avgpool_global_f16/compile" good)
if(good EQUAL -1)
  fail("the good task's gates were not generated")
endif()
string(FIND "${tests}" "hip2hip/bad_dtype/compile" bad)
if(bad EQUAL -1)
  fail("the bad task has no compile test")
endif()
execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" -R "^hip2hip/bad_dtype/compile$" --output-on-failure
                WORKING_DIRECTORY "${WORK_DIR}/build" RESULT_VARIABLE rc OUTPUT_VARIABLE log)
if(rc EQUAL 0)
  fail("the bad task's compile test passed")
endif()
string(FIND "${log}" "unknown dtype 'float16'" why)
if(why EQUAL -1)
  fail("the bad task's compile test does not say why")
endif()
string(FIND "${flat}" "unbound/task.json: torch: missing (the oracle of this suite is the model reference.py" at)
if(at EQUAL -1)
  fail("configure did not name the unbound spec's file and field")
endif()
execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" -R "^torch2hip/unbound/" --output-on-failure
                WORKING_DIRECTORY "${WORK_DIR}/build" RESULT_VARIABLE rc OUTPUT_VARIABLE log)
if(rc EQUAL 0 OR NOT log MATCHES "1 tests failed out of 1" OR NOT log MATCHES "torch: missing")
  fail("the unbound task's only test, its compile test, did not fail saying why")
endif()
message(STATUS "one bad task: named at configure, the good task generated, its compile test failed saying why")
