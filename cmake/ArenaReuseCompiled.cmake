# cmake -P script: selftest/<id>/compile_solution where the candidate is the task's solution
# (ARENA_CANDIDATE=solution): <id>/compile has already compiled that same file with the same
# command (confined, which only adds restrictions), so its library is taken instead of
# compiling the solution a second time. Passes only when that gate passed on this very file.
#
#   cmake -DSOURCE=<solution> -DGATE=<id>/compile -DFROM=<its library> -DFROM_RESULT=<its result.json>
#         -DOUTPUT=<solution library> -DRESULT=<compile_solution.json> -DWHAT=<label> -P ArenaReuseCompiled.cmake
cmake_minimum_required(VERSION 3.25)
foreach(_v SOURCE GATE FROM FROM_RESULT OUTPUT RESULT WHAT)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "ArenaReuseCompiled: -D${_v}=... is required")
  endif()
endforeach()

function(_fail why)
  message("FAILED: ${WHAT}: ${why}")
  file(REMOVE "${OUTPUT}")
  message(FATAL_ERROR "${WHAT}: not compiled (the reason is the line above)")
endfunction()

if(NOT EXISTS "${FROM_RESULT}")
  _fail("${GATE}, which compiles this same file, left no result (${FROM_RESULT}): run it first")
endif()
file(READ "${FROM_RESULT}" _json)
string(JSON _status ERROR_VARIABLE _e GET "${_json}" status)
string(JSON _source ERROR_VARIABLE _e2 GET "${_json}" source)
if(_e OR _e2)
  _fail("${FROM_RESULT} is not a compile result: ${_e}${_e2}")
endif()
if(NOT _source STREQUAL SOURCE)
  _fail("${GATE} compiled ${_source}, not ${SOURCE}")
endif()
if(NOT _status STREQUAL "passed")
  string(JSON _message ERROR_VARIABLE _e GET "${_json}" message)
  _fail("${GATE} did not compile it (${_status}): ${_message}")
endif()
if(NOT EXISTS "${FROM}")
  _fail("${GATE} passed but its library ${FROM} is gone")
endif()
get_filename_component(_dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${_dir}")
file(COPY_FILE "${FROM}" "${OUTPUT}")
string(JSON _json SET "${_json}" what "\"${WHAT}\"")
string(JSON _json SET "${_json}" compiled_by "\"${GATE}\"")
get_filename_component(_rdir "${RESULT}" DIRECTORY)
file(MAKE_DIRECTORY "${_rdir}")
file(WRITE "${RESULT}" "${_json}\n")
message("${WHAT}: compiled once, by ${GATE} (the same file and command, confined); its library is used: ${OUTPUT}")
