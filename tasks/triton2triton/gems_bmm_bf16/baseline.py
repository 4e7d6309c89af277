"""Batched bf16 matrix product C[b] = A[b] @ B[b] (A [Bt, M, K], B [Bt, K, N], row-major, fp32
accumulation, bf16 C) with FlagGems' bmm kernel.

Package: flag-gems 5.0.2 (Apache-2.0). Callable: flag_gems.ops.bmm.bmm. That wrapper allocates C
and launches bmm_kernel on a (cdiv(M, TILE_M), cdiv(N, TILE_N), Bt) grid with the three
tensors' strides; the kernel's libtuner picks the tile, GROUP_M, warps and stages from
FlagGems' tuned bmm list during warm-up (keyed on M, N, K rounded up to powers of two) and its
heuristics set the DIVISIBLE_* flags. This launch does exactly that on the harness's C (no
allocation, no device context switch)."""
import triton
from flag_gems.ops.bmm import bmm_kernel


def launch(A, B, C, Bt, M, N, K):
    grid = lambda meta: (triton.cdiv(meta["M"], meta["TILE_M"]), triton.cdiv(meta["N"], meta["TILE_N"]), Bt)
    bmm_kernel[grid](A, B, C, M, N, K, A.stride(0), A.stride(1), A.stride(2), B.stride(0), B.stride(1),
                     B.stride(2), C.stride(0), C.stride(1), C.stride(2))
