"""Log-softmax over the last dim of an fp32 matrix as flag-gems 5.0.2 (Apache-2.0) computes
it: `flag_gems.ops.log_softmax.log_softmax(x, dim=-1)`.

The op allocates the output and launches `log_softmax_kernel` with grid
(cdiv(M, BLOCK_M), 1), its default BLOCK_M = 8 rows and BLOCK_N = 256 columns, and 8 warps:
each program walks its 8 rows in 256-column steps keeping a running maximum and rescaled sum
of exponentials per lane (two exps per value), then walks them again to write
x - max - log(sum). This module makes that launch on the harness's y."""
import triton
from flag_gems.ops.log_softmax import log_softmax_kernel


def launch(x, y, M, N):
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]), 1)
    log_softmax_kernel[grid](y, x, M, N, 1, num_warps=8)
