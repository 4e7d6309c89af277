# The bubblewrap sandbox an agent runs in (ARENA_AGENT_SANDBOX; docs/agents.md).
#
#   arena_sandbox_command(<out> WORKSPACE <dir> TOOLS <dir> [READ_ONLY <dir>...] [CONFIG_DIRS <dir>...]
#                         COMMAND <command>...)
#
# Sets <out> to the command wrapped in bwrap: the system read-only, the workspace read-write,
# the toolbox and READ_ONLY folders (the Python installation) read-only, the GPU device nodes
# and the agent's own configuration (CONFIG_DIRS, read-write where they exist); not the source
# tree (unseen configurations, oracles, solutions) and not the build tree (results, the fuzz seed).
include_guard(GLOBAL)

function(arena_sandbox_command out)
  cmake_parse_arguments(PARSE_ARGV 1 S "" "WORKSPACE;TOOLS" "READ_ONLY;CONFIG_DIRS;COMMAND")
  find_program(_bwrap bwrap)
  if(NOT _bwrap)
    message(FATAL_ERROR "The agent sandbox needs bubblewrap (Debian package bubblewrap)")
  endif()
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
  list(APPEND _box --bind "${S_WORKSPACE}" "${S_WORKSPACE}" --ro-bind "${S_TOOLS}" "${S_TOOLS}")
  foreach(_p IN LISTS S_READ_ONLY)
    list(APPEND _box --ro-bind-try "${_p}" "${_p}")
  endforeach()
  foreach(_c IN LISTS S_CONFIG_DIRS)
    if(EXISTS "${_c}")
      list(APPEND _box --bind "${_c}" "${_c}")
    endif()
  endforeach()
  set(${out} ${_box} --chdir "${S_WORKSPACE}" -- ${S_COMMAND} PARENT_SCOPE)
endfunction()
