# Shared by the scheduling checks (cmake -P): a fake nvidia-smi and each test's resource groups
# as ctest reads them (docs/DESIGN.md, "Scheduling").
include_guard(GLOBAL)

function(fail what)
  message(FATAL_ERROR "FAILED: ${what}")
endfunction()

# <dir>/nvidia-smi listing `count` GPUs of `mib` MiB each.
function(write_fake_nvidia_smi dir count mib)
  set(list_lines "")
  set(mem_lines "")
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(APPEND list_lines "GPU ${i}: NVIDIA H100 80GB HBM3 (UUID: GPU-${i})\\n")
    string(APPEND mem_lines "${mib}\\n")
  endforeach()
  file(MAKE_DIRECTORY "${dir}")
  file(WRITE "${dir}/nvidia-smi" "#!/bin/sh
case \"$*\" in
  -L) printf '${list_lines}' ;;
  *--query-gpu=memory.total*) printf '${mem_lines}' ;;
  *) exit 1 ;;
esac
")
  file(CHMOD "${dir}/nvidia-smi" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
endfunction()

# `ctest --show-only=json-v1` of the build in `build`, into `out`.
function(read_tests build out)
  execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" --show-only=json-v1 WORKING_DIRECTORY "${build}"
                  OUTPUT_VARIABLE tests RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    fail("ctest --show-only=json-v1 failed in ${build}")
  endif()
  set(${out} "${tests}" PARENT_SCOPE)
endfunction()

# The value of property `prop` of `test` (from read_tests' `tests`) as JSON; empty where the
# test does not set it.
function(property_of tests test prop out)
  string(JSON n LENGTH "${tests}" tests)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON name GET "${tests}" tests ${i} name)
    if(NOT name STREQUAL test)
      continue()
    endif()
    string(JSON np LENGTH "${tests}" tests ${i} properties)
    math(EXPR plast "${np} - 1")
    foreach(p RANGE ${plast})
      string(JSON pname GET "${tests}" tests ${i} properties ${p} name)
      if(pname STREQUAL prop)
        string(JSON value GET "${tests}" tests ${i} properties ${p} value)
        set(${out} "${value}" PARENT_SCOPE)
        return()
      endif()
    endforeach()
    set(${out} "" PARENT_SCOPE)
    return()
  endforeach()
  fail("no test ${test}")
endfunction()

# The one resource requirement of `test` (from read_tests' `tests`): its type and slots.
function(resources_of tests test type_out slots_out)
  property_of("${tests}" "${test}" RESOURCE_GROUPS groups)
  if(groups STREQUAL "")
    fail("${test} has no RESOURCE_GROUPS")
  endif()
  string(JSON n LENGTH "${groups}")
  string(JSON nreq LENGTH "${groups}" 0 requirements)
  if(NOT n EQUAL 1 OR NOT nreq EQUAL 1)
    fail("${test} asks for ${n} group(s) of ${nreq} requirement(s), not one group of one")
  endif()
  string(JSON type GET "${groups}" 0 requirements 0 ".type")
  string(JSON slots GET "${groups}" 0 requirements 0 slots)
  set(${type_out} "${type}" PARENT_SCOPE)
  set(${slots_out} "${slots}" PARENT_SCOPE)
endfunction()
