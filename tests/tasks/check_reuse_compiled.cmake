# cmake -P: selftest/<id>/compile_solution when the candidate is the solution takes the compile
# gate's library (cmake/ArenaReuseCompiled.cmake) only when that gate passed on the same file;
# otherwise it fails, saying why, and leaves no library behind.
#   cmake -DWORK_DIR=<dir> -DSCRIPT=<cmake/ArenaReuseCompiled.cmake> -P check_reuse_compiled.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK_DIR}")
file(WRITE "${WORK_DIR}/solution.hip" "// the solution\n")
file(WRITE "${WORK_DIR}/candidate.so" "library bytes\n")
set(failures 0)

# run_case <name> <status> <source in the gate's result> <expected: pass or a regex of the reason>
function(run_case name status source expect)
  set(result "${WORK_DIR}/${name}/compile.json")
  if(NOT status STREQUAL "none")
    file(WRITE "${result}" "{\"status\": \"${status}\", \"source\": \"${source}\", \"message\": \"exit 1: syntax error\"}\n")
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DSOURCE=${WORK_DIR}/solution.hip" "-DGATE=suite/task/compile"
                          "-DFROM=${WORK_DIR}/candidate.so" "-DFROM_RESULT=${result}" "-DOUTPUT=${WORK_DIR}/${name}/solution.so"
                          "-DRESULT=${WORK_DIR}/${name}/compile_solution.json" "-DWHAT=suite/task solution" -P "${SCRIPT}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(APPEND out "${err}")
  if(expect STREQUAL "pass")
    file(READ "${WORK_DIR}/${name}/compile_solution.json" _json)
    string(JSON _by GET "${_json}" compiled_by)
    if(NOT rc EQUAL 0 OR NOT EXISTS "${WORK_DIR}/${name}/solution.so" OR NOT _by STREQUAL "suite/task/compile")
      message("FAILED: ${name}: expected the gate's library to be taken (exit ${rc}):\n${out}")
      math(EXPR failures "${failures} + 1")
    endif()
  elseif(rc EQUAL 0 OR NOT out MATCHES "FAILED: suite/task solution: ${expect}" OR EXISTS "${WORK_DIR}/${name}/solution.so")
    message("FAILED: ${name}: expected a failure matching '${expect}' and no library (exit ${rc}):\n${out}")
    math(EXPR failures "${failures} + 1")
  endif()
  set(failures ${failures} PARENT_SCOPE)
endfunction()

run_case(passed passed "${WORK_DIR}/solution.hip" pass)
run_case(gate_failed failed "${WORK_DIR}/solution.hip" "suite/task/compile did not compile it \\(failed\\): exit 1: syntax error")
run_case(other_file passed "${WORK_DIR}/other.hip" "suite/task/compile compiled [^ ]*/other.hip, not [^ ]*/solution.hip")
run_case(no_result none "" "suite/task/compile, which compiles this same file, left no result")
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} case(s) failed")
endif()
message("compile_solution from the compile gate: all 4 cases as expected")
