# `cmake --install <build> --prefix <P>`: the KernelArena package.
#
#   <P>/bin/                        arena-correct, arena-perf, arena-profile, arena-spec,
#                                   arena-device-info, arena-run-agent, arena-worker, arena-confine,
#                                   arena-task-filter, arena-score
#   <P>/lib/                        libarena_device.so (the device backend), libarena_tools.so,
#                                   libarena_worker.so
#   <P>/include/kernelarena/        arena/arena_abi.h, arena/arena_reference.h, hip_on_cuda/hip/*.h
#   <P>/lib/cmake/KernelArena/      KernelArenaConfig.cmake (+ version, targets) and the modules
#   <P>/share/KernelArena/          agents/, suites/*/{suite.cmake,prompt.md}, python/ (the Python host), tools/
#
# Every installed file names paths relative to the prefix only, so the prefix can move.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ARENA_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/KernelArena")
set(ARENA_INSTALL_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}/kernelarena")
set(ARENA_INSTALL_DATADIR "${CMAKE_INSTALL_DATADIR}/KernelArena")

set(_arena_installed_exes arena-spec arena-correct arena-perf arena-profile arena-device-info arena-run-agent
    arena-worker arena-confine arena-task-filter)
if(TARGET arena-score-installed)
  list(APPEND _arena_installed_exes arena-score-installed)
endif()
# Installed runners find the device backend beside them, in <P>/lib.
file(RELATIVE_PATH _arena_bin_to_lib "/p/${CMAKE_INSTALL_BINDIR}" "/p/${CMAKE_INSTALL_LIBDIR}")
set_target_properties(${_arena_installed_exes} PROPERTIES INSTALL_RPATH "$ORIGIN/${_arena_bin_to_lib}")
set_target_properties(arena_tools arena_worker_lib PROPERTIES INSTALL_RPATH "$ORIGIN")
# Workers also load the CUDA driver's tracer (CUPTI) from the toolkit they were linked with.
set_target_properties(arena-worker arena_worker_lib PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)

install(TARGETS ${_arena_installed_exes} arena_tools arena_worker_lib arena_abi arena_hip_on_cuda
        EXPORT KernelArenaTargets
        RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
        LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
get_target_property(_arena_device_lib arena_device IMPORTED_LOCATION)
install(FILES "${_arena_device_lib}" DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/harness/include/" DESTINATION "${ARENA_INSTALL_INCLUDEDIR}")

install(FILES
  "${PROJECT_SOURCE_DIR}/cmake/ArenaOptions.cmake" "${PROJECT_SOURCE_DIR}/cmake/ArenaPlatform.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/ArenaPlatformDetect.cmake" "${PROJECT_SOURCE_DIR}/cmake/ArenaTasks.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/ArenaCompileKernel.cmake" "${PROJECT_SOURCE_DIR}/cmake/ArenaAgent.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/ArenaSuite.cmake" "${PROJECT_SOURCE_DIR}/cmake/ArenaSandbox.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/ArenaDashboard.cmake" "${PROJECT_SOURCE_DIR}/cmake/ArenaTaskFilter.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/ArenaPython.cmake" "${PROJECT_SOURCE_DIR}/cmake/ArenaReuseCompiled.cmake"
  DESTINATION "${ARENA_INSTALL_CMAKEDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/cmake/agent/" DESTINATION "${ARENA_INSTALL_CMAKEDIR}/agent")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/agents/" DESTINATION "${ARENA_INSTALL_DATADIR}/agents")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/suites/" DESTINATION "${ARENA_INSTALL_DATADIR}/suites"
        FILES_MATCHING PATTERN "suite.cmake" PATTERN "prompt.md" PATTERN "README.md")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/harness/python/" DESTINATION "${ARENA_INSTALL_DATADIR}/python"
        FILES_MATCHING PATTERN "*.py")
install(PROGRAMS "${PROJECT_SOURCE_DIR}/harness/tools/arena-profile.sh" DESTINATION "${ARENA_INSTALL_DATADIR}/tools")

install(EXPORT KernelArenaTargets NAMESPACE KernelArena:: DESTINATION "${ARENA_INSTALL_CMAKEDIR}")
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/KernelArenaConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/KernelArenaConfig.cmake"
  INSTALL_DESTINATION "${ARENA_INSTALL_CMAKEDIR}"
  PATH_VARS ARENA_INSTALL_INCLUDEDIR ARENA_INSTALL_DATADIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_BINDIR)
# 0.x: a minor release may change the gates' interface, so 0.1 accepts 0.1.y only.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/KernelArenaConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/KernelArenaConfig.cmake" "${PROJECT_BINARY_DIR}/KernelArenaConfigVersion.cmake"
        DESTINATION "${ARENA_INSTALL_CMAKEDIR}")
