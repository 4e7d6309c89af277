# The project's suite: HIP kernels checked against the project's own C++ host code, judged
# exactly like KernelArena's hip2hip suite (its descriptor, its prompt).
include("${ARENA_SUITES_DIR}/hip2hip/suite.cmake")
