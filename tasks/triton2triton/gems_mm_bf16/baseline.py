"""bf16 matrix product C = A @ B (A [M, K], B [K, N], row-major, fp32 accumulation, bf16 C) with
FlagGems' general GEMM kernel.

Package: flag-gems 5.0.2 (Apache-2.0). Callable: flag_gems.ops.mm.mm. On an H100 with
contiguous bf16 operands that wrapper takes neither its syrk path (A and B are different
tensors) nor its stream-K path (compute capability 8 only), allocates C and calls general_mm,
which launches mm_kernel_general on a 1D grid of cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N) programs
with the operands' strides and GROUP_M=8; the kernel's libtuner picks BLOCK_M/N/K, warps and
stages from FlagGems' tuned list during warm-up. This launch does exactly that on the
harness's C (no allocation, no device context switch)."""
import triton
from flag_gems.ops.mm import mm_kernel_general


def launch(A, B, C, M, N, K):
    grid = lambda META: (triton.cdiv(M, META["BLOCK_M"]) * triton.cdiv(N, META["BLOCK_N"]),)
    mm_kernel_general[grid](A, B, C, M, N, K, A.stride(0), A.stride(1), B.stride(0), B.stride(1),
                            C.stride(0), C.stride(1), GROUP_M=8)
