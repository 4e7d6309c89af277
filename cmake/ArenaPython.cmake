# Which Python runs the Python suites' side of the gates (ARENA_PYTHON): torch2hip's reference.py
# needs PyTorch, triton2triton's modules need PyTorch and Triton. A machine may have several
# Pythons (a pyenv python3 first on PATH, Debian's /usr/bin/python3 with python3-torch), so
# configure asks each what it imports instead of taking the first on PATH (docs/DESIGN.md §5).
#
#   arena_choose_python(SUITES <suite>...)
#
# ARENA_PYTHON given by the user: used as given, with a warning when it lacks what the suites
# need. Empty: the candidates are each python3 on PATH, ARENA_PYTHON_FALLBACKS (/usr/bin/python3)
# and the versioned python3.X on PATH, in that order (one per real file); each is asked for its torch
# and triton versions (ARENA_PYTHON_PROBE_TIMEOUT_S each) and the first with all the suites need
# is taken, else the first with the most of it (triton2triton's pinned packages break ties).
# Either way one status line says which Python, its torch and triton versions (or 'missing') and
# what is skipped for want of them. A pick with everything is kept without asking again.
include_guard(GLOBAL)

set(ARENA_PYTHON_PROBE_TIMEOUT_S "30" CACHE STRING "Seconds one Python may take to say what it imports (configure)")
set(ARENA_PYTHON_FALLBACKS "/usr/bin/python3" CACHE STRING
    "Pythons tried after python3 on PATH and before the versioned ones (Debian's python3-torch installs for /usr/bin/python3)")

# What each built-in suite needs to import in ARENA_PYTHON (other suites need nothing here).
set(_ARENA_PYTHON_NEEDS_torch2hip torch)
set(_ARENA_PYTHON_NEEDS_triton2triton torch triton)

# Runs <python> and sets <out>_OK (it answered), <out>_VERSION, <out>_torch and <out>_triton
# (a version or 'missing'). Each import is tried on its own: a broken one must not hide the other.
function(_arena_probe_python python out)
  set(_script [=[
import sys
def version(name):
    try:
        module = __import__(name)
    except BaseException:
        return "missing"
    return str(getattr(module, "__version__", "installed"))
def installed(dist):
    try:
        import importlib.metadata
        importlib.metadata.version(dist)
        return True
    except BaseException:
        return False
print("arena-python-probe|%d.%d.%d|%s|%s|%s" % (sys.version_info[:3] + (version("torch"), version("triton"),
      ",".join(d for d in sys.argv[1:] if not installed(d)))))
]=])
  execute_process(COMMAND "${python}" -c "${_script}" ${ARGN} TIMEOUT ${ARENA_PYTHON_PROBE_TIMEOUT_S}
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _stdout ERROR_VARIABLE _stderr)
  set(${out}_OK FALSE PARENT_SCOPE)
  if(_rc EQUAL 0 AND _stdout MATCHES "arena-python-probe\\|([^|\n]*)\\|([^|\n]*)\\|([^|\n]*)\\|([^|\n]*)")
    set(${out}_OK TRUE PARENT_SCOPE)
    set(${out}_VERSION "${CMAKE_MATCH_1}" PARENT_SCOPE)
    set(${out}_torch "${CMAKE_MATCH_2}" PARENT_SCOPE)
    set(${out}_triton "${CMAKE_MATCH_3}" PARENT_SCOPE)
    string(REPLACE "," ";" _lacking "${CMAKE_MATCH_4}")
    set(${out}_LACKS_PACKAGES "${_lacking}" PARENT_SCOPE)
  elseif(_rc MATCHES "timeout")
    set(${out}_WHY "did not answer within ${ARENA_PYTHON_PROBE_TIMEOUT_S} s" PARENT_SCOPE)
  else()
    string(REGEX REPLACE "\n.*" "" _first_line "${_stderr}")
    set(${out}_WHY "does not run (exit ${_rc}${_first_line})" PARENT_SCOPE)
    if(_first_line)
      set(${out}_WHY "does not run (exit ${_rc}: ${_first_line})" PARENT_SCOPE)
    endif()
  endif()
endfunction()

# The candidates, in order, one per real file.
function(_arena_python_candidates out)
  set(_list "")
  if(CMAKE_HOST_WIN32)
    set(_path "$ENV{PATH}")
  else()
    string(REPLACE ":" ";" _path "$ENV{PATH}")
  endif()
  foreach(_dir IN LISTS _path)
    if(EXISTS "${_dir}/python3")
      list(APPEND _list "${_dir}/python3")
    endif()
  endforeach()
  foreach(_p IN LISTS ARENA_PYTHON_FALLBACKS)
    if(EXISTS "${_p}")
      list(APPEND _list "${_p}")
    endif()
  endforeach()
  foreach(_dir IN LISTS _path)
    file(GLOB _versioned "${_dir}/python3.[0-9]" "${_dir}/python3.[0-9][0-9]")
    # Newest first: python3.13 before python3.9.
    list(SORT _versioned COMPARE NATURAL ORDER DESCENDING)
    list(APPEND _list ${_versioned})
  endforeach()
  set(_seen "")
  set(_unique "")
  foreach(_p IN LISTS _list)
    file(REAL_PATH "${_p}" _real)
    if(NOT _real IN_LIST _seen AND NOT IS_DIRECTORY "${_p}")
      list(APPEND _seen "${_real}")
      list(APPEND _unique "${_p}")
    endif()
  endforeach()
  set(${out} "${_unique}" PARENT_SCOPE)
endfunction()

# "torch 2.5.1, triton missing" for probe <p>.
function(_arena_python_versions p out)
  set(${out} "torch ${${p}_torch}, triton ${${p}_triton}" PARENT_SCOPE)
endfunction()

function(arena_choose_python)
  cmake_parse_arguments(PARSE_ARGV 0 A "" "" "SUITES")
  set(_needs "")
  set(_needing "")
  foreach(_s IN LISTS A_SUITES)
    if(DEFINED _ARENA_PYTHON_NEEDS_${_s})
      list(APPEND _needs ${_ARENA_PYTHON_NEEDS_${_s}})
      list(APPEND _needing "${_s}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES _needs)
  # triton2triton's production baselines import their pinned packages (requirements.txt): a
  # Python that has them is preferred among those with the same modules.
  set(_packages "")
  set(_requirements "")
  if("triton2triton" IN_LIST _needing)
    if(ARENA_DATA_DIR)
      set(_requirements "${ARENA_DATA_DIR}/suites/triton2triton/requirements.txt")
    else()
      get_filename_component(_requirements "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../suites/triton2triton/requirements.txt"
                             ABSOLUTE)
    endif()
    if(EXISTS "${_requirements}")
      file(READ "${_requirements}" _text)  # (file(STRINGS) would keep the lines' trailing backslashes)
      string(REGEX MATCHALL "(^|\n)[A-Za-z0-9_.-]+==" _pins "${_text}")
      foreach(_pin IN LISTS _pins)
        string(REGEX REPLACE "[\n=]" "" _pin "${_pin}")
        list(APPEND _packages "${_pin}")
      endforeach()
    endif()
  endif()

  # ARENA_PYTHON set by the user (not the one configure picked last time): used as given.
  get_property(_picked CACHE _ARENA_PYTHON_PICKED PROPERTY VALUE)
  get_property(_help CACHE ARENA_PYTHON PROPERTY HELPSTRING)
  if(NOT DEFINED CACHE{_ARENA_PYTHON_PICKED} AND _help MATCHES "^Python with PyTorch for torch2hip")
    set(_picked "${ARENA_PYTHON}")  # a build folder from before configure chose: its default was python3 on PATH
  endif()
  get_property(_kept CACHE _ARENA_PYTHON_KEPT PROPERTY VALUE)
  if(_picked AND ARENA_PYTHON STREQUAL "${_picked}" AND _kept MATCHES "^([^|]*)\\|([^|]*)\\|(.*)$"
     AND CMAKE_MATCH_1 STREQUAL _picked AND CMAKE_MATCH_2 STREQUAL "${_needs}" AND EXISTS "${_picked}")
    message(STATUS "${CMAKE_MATCH_3}")
    return()
  endif()
  set(_given FALSE)
  if(ARENA_PYTHON AND NOT ARENA_PYTHON STREQUAL "${_picked}")
    set(_given TRUE)
    set(_candidates "${ARENA_PYTHON}")
  else()
    _arena_python_candidates(_candidates)
  endif()

  set(_best "")
  set(_best_score -1)
  set(_tried "")
  set(_failed "")
  list(LENGTH _needs _n_needs)
  foreach(_p IN LISTS _candidates)
    _arena_probe_python("${_p}" _probe ${_packages})
    if(NOT _probe_OK)
      list(APPEND _failed "${_p} ${_probe_WHY}")
      continue()
    endif()
    # Modules first (each worth more than all the packages), then packages.
    list(LENGTH _packages _score)
    list(LENGTH _probe_LACKS_PACKAGES _n_lacking)
    math(EXPR _score "${_score} - ${_n_lacking}")
    set(_full TRUE)
    foreach(_m IN LISTS _needs)
      if(NOT _probe_${_m} STREQUAL "missing")
        math(EXPR _score "${_score} + 100")
      else()
        set(_full FALSE)
      endif()
    endforeach()
    if(_n_lacking GREATER 0)
      set(_full FALSE)
    endif()
    _arena_python_versions(_probe _v)
    list(APPEND _tried "${_p} (${_v})")
    if(_score GREATER _best_score)
      set(_best "${_p}")
      set(_best_score ${_score})
      foreach(_k VERSION torch triton LACKS_PACKAGES)
        set(_chosen_${_k} "${_probe_${_k}}")
      endforeach()
    endif()
    if(_full)
      break()  # the first with everything
    endif()
  endforeach()

  if(_best STREQUAL "")
    if(_given)
      set(_best "${ARENA_PYTHON}")
    else()
      list(JOIN _failed "; " _failed_text)
      message(STATUS "KernelArena Python: none runs (tried: ${_failed_text}); the Python suites' gates and "
                     "the Python tests will fail or skip (set -DARENA_PYTHON=<python3>)")
      set(ARENA_PYTHON "" CACHE FILEPATH "" FORCE)
      return()
    endif()
  endif()

  # What is skipped for want of torch or triton in the chosen Python.
  set(_skipped "")
  foreach(_s IN LISTS _needing)
    set(_lacks "")
    foreach(_m IN LISTS _ARENA_PYTHON_NEEDS_${_s})
      if(NOT DEFINED _chosen_${_m} OR _chosen_${_m} STREQUAL "missing")
        list(APPEND _lacks ${_m})
      endif()
    endforeach()
    if(_lacks)
      list(JOIN _lacks " and " _lacks_text)
      if(_s STREQUAL "torch2hip")
        list(APPEND _skipped "torch2hip's gates and CPU checks of reference.py skip (no ${_lacks_text})")
      else()
        list(APPEND _skipped "${_s}'s GPU gates skip (no ${_lacks_text})")
      endif()
    endif()
  endforeach()
  if(_chosen_LACKS_PACKAGES)
    list(JOIN _chosen_LACKS_PACKAGES ", " _lacking_text)
    list(APPEND _skipped "triton2triton's tasks on ${_lacking_text} fail their compile gates (not installed for this Python: ${_best} -m pip install --no-deps --require-hashes -r ${_requirements})")
  endif()
  if(_skipped)
    list(JOIN _skipped "; " _consequence)
  elseif(_needing)
    list(JOIN _needing " and " _needing_text)
    set(_consequence "${_needing_text} have what they need")
  else()
    set(_consequence "no configured suite needs torch or triton")
  endif()

  if(DEFINED _chosen_torch)
    set(_what "Python ${_chosen_VERSION}; torch ${_chosen_torch}, triton ${_chosen_triton}")
  else()
    set(_what "does not run")
  endif()
  if(_given)
    set(_how "ARENA_PYTHON as given")
  else()
    # Those that answered, with their versions; those that do not run only counted.
    list(LENGTH _tried _n_ran)
    list(LENGTH _failed _n_failed)
    math(EXPR _n_tried "${_n_ran} + ${_n_failed}")
    set(_how "picked of ${_n_tried} tried")
    if(_n_tried GREATER 1)
      list(JOIN _tried "; " _tried_text)
      set(_how "${_how}: ${_tried_text}")
      if(_n_failed GREATER 0)
        set(_how "${_how}; ${_n_failed} other(s) do not run")
      endif()
    endif()
  endif()
  set(_status "KernelArena Python: ${_best} (${_what}) - ${_consequence} [${_how}]")
  message(STATUS "${_status}")
  if(_given AND _skipped)
    message(WARNING "ARENA_PYTHON=${ARENA_PYTHON} lacks what the configured suites need: ${_consequence}. "
                    "Install it there, or leave ARENA_PYTHON empty and configure picks a Python that has it.")
  endif()
  if(NOT _given)
    set(ARENA_PYTHON "${_best}" CACHE FILEPATH
        "Python for the Python suites (torch2hip: torch; triton2triton: torch and triton); empty: configure picks one" FORCE)
    set(_ARENA_PYTHON_PICKED "${_best}" CACHE INTERNAL "The Python configure picked last (ARENA_PYTHON not set by the user)")
    # A pick with everything the suites need is kept for the next configure without asking again.
    if(NOT _skipped)
      set(_ARENA_PYTHON_KEPT "${_best}|${_needs}|${_status}" CACHE INTERNAL "The pick and its status line")
    else()
      unset(_ARENA_PYTHON_KEPT CACHE)
    endif()
  endif()
endfunction()
