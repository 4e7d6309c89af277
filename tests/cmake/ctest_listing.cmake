# Reading CTest's own listing of a build's tests (`ctest --show-only=json-v1`), for the checks
# that look at what configure generated (cmake -P scripts under tests/).
include_guard(GLOBAL)

# `ctest --show-only=json-v1` of the build in `build`, into `out`.
function(read_tests build out)
  execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" --show-only=json-v1 WORKING_DIRECTORY "${build}"
                  OUTPUT_VARIABLE tests RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    fail("ctest --show-only=json-v1 failed in ${build}")
  endif()
  set(${out} "${tests}" PARENT_SCOPE)
endfunction()

# Test number `index`'s property `name` from the listing, as JSON ("" if it has none).
function(test_property listing index name out)
  set(${out} "" PARENT_SCOPE)
  string(JSON np LENGTH "${listing}" tests ${index} properties)
  if(np EQUAL 0)
    return()
  endif()
  math(EXPR last "${np} - 1")
  foreach(p RANGE ${last})
    string(JSON pn GET "${listing}" tests ${index} properties ${p} name)
    if(pn STREQUAL name)
      string(JSON pv GET "${listing}" tests ${index} properties ${p} value)
      set(${out} "${pv}" PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

# The property `prop` of the test named `test`, as JSON ("" where it does not set it); fails
# (through the caller's fail()) when there is no such test.
function(property_of tests test prop out)
  string(JSON n LENGTH "${tests}" tests)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON name GET "${tests}" tests ${i} name)
    if(name STREQUAL test)
      test_property("${tests}" ${i} ${prop} value)
      set(${out} "${value}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  fail("no test ${test}")
endfunction()
