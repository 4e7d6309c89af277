# The throwaway project uses KernelArena's own CDash settings, so the test exercises how
# they let a dashboard script or the environment choose the submit URL.
include("${CMAKE_CURRENT_LIST_DIR}/../../../CTestConfig.cmake")
