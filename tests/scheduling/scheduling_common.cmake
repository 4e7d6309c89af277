# Shared by the scheduling checks (cmake -P): which platform they run on, a fake nvidia-smi and
# each test's resource groups as ctest reads them (docs/DESIGN.md, "Scheduling").
include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/../cmake/ctest_listing.cmake")

# The scheduling checks run in the nvidia build: the fake GPUs answer as nvidia-smi, and a
# host-only build generates no gates. Elsewhere the calling script ends, saying why (a macro:
# its return() ends the script that calls it).
macro(run_only_on_nvidia platform)
  if("${platform}" STREQUAL "none" OR "${platform}" STREQUAL "")
    message("SKIPPED: a host-only build generates no gates (ARENA_HIP_PLATFORM=none)")
    return()
  endif()
  if(NOT "${platform}" STREQUAL "nvidia")
    message("SKIPPED: the fake GPUs answer as nvidia-smi, which only the nvidia platform asks")
    return()
  endif()
endmacro()

# A fresh WORK_DIR holding one real task (hip2hip/avgpool_global_f16), named in `task`: the
# checks configure a build of it alone. A macro: `task` is the caller's.
macro(scratch_with_one_task source_dir work_dir)
  file(REMOVE_RECURSE "${work_dir}")
  file(COPY "${source_dir}/tasks/hip2hip/avgpool_global_f16/" DESTINATION "${work_dir}/tasks/hip2hip/avgpool_global_f16")
  set(task hip2hip/avgpool_global_f16)
endmacro()

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
