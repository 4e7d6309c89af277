"""bf16 linear layer with bias C = A @ B + bias (A [M, K], B [K, N], bias [N] broadcast over rows,
fp32 accumulation, bf16 C) with FlagGems' addmm kernel.

Package: flag-gems 5.0.2 (Apache-2.0). Callable: flag_gems.ops.addmm.addmm (beta = alpha = 1).
That wrapper makes A contiguous (it is), allocates C, broadcasts bias to [M, N] (strides 0 and
1) and launches addmm_kernel on a 2D grid (cdiv(M, BLOCK_SIZE_M), cdiv(N, BLOCK_SIZE_N)) with
alpha = beta = 1 and the operands' strides; the kernel's libtuner picks the tile, warps and
stages from FlagGems' tuned addmm list during warm-up. This launch passes the same arguments,
with the harness's C and the bias's broadcast strides written out (no allocation, no device
context switch)."""
import triton
from flag_gems.ops.addmm import addmm_kernel


def launch(A, B, bias, C, M, N, K):
    grid = lambda META: (triton.cdiv(M, META["BLOCK_SIZE_M"]), triton.cdiv(N, META["BLOCK_SIZE_N"]))
    addmm_kernel[grid](A, B, bias, C, 1, 1, M, N, K, A.stride(0), A.stride(1), B.stride(0), B.stride(1),
                       0, bias.stride(0), C.stride(0), C.stride(1))
