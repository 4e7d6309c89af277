#include "../solution.hip"
#define V(name, BM, BN, BK, TM, TN) \
  extern "C" __attribute__((visibility("default"))) int name(const arena_args* a) { \
    return launch_tile<BM, BN, BK, TM, TN>((const float*)a->tensors[0], (const float*)a->tensors[1], \
      (float*)a->tensors[2], (int)a->ints[0], (int)a->ints[1], (int)a->ints[2], (int)a->ints[2], 1, a->stream); }
V(v128, 128, 128, 8, 8, 8)
V(v128x64, 128, 64, 8, 8, 4)
V(v64x128, 64, 128, 8, 4, 8)
V(v64, 64, 64, 16, 4, 4)
V(v64k8, 64, 64, 8, 4, 4)
