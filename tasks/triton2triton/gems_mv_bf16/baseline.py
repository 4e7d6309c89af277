"""bf16 matrix-vector product y = A @ x (A [M, K] row-major, x [K], fp32 accumulation, bf16 y) with
FlagGems' mv kernel.

Package: flag-gems 5.0.2 (Apache-2.0). Callable: flag_gems.ops.mv.mv(A, x). That wrapper
allocates y and launches mv_kernel on cdiv(rows, BLOCK_N) programs with the operands' strides
(the kernel calls the row count N and the row length M); the kernel's libtuner picks BLOCK_N
(1-8 rows per program), BLOCK_M (32-128 columns per step), warps and stages from FlagGems' tuned
mv list during warm-up. This launch does exactly that on the harness's y (no allocation, no
device context switch)."""
import triton
from flag_gems.ops.mv import mv_kernel


def launch(A, x, y, M, K):
    grid = lambda META: (triton.cdiv(M, META["BLOCK_N"]),)
    mv_kernel[grid](A, x, y, M, K, A.stride(0), A.stride(1), x.stride(0), y.stride(0))
