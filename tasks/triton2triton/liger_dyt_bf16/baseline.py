"""DyT (Dynamic Tanh) forward of liger-kernel 0.8.5 (BSD-2-Clause): the package's autotuned
`_dyt_fwd_kernel`, launched as `liger_kernel.ops.dyt.liger_dyt_fwd(x, alpha, gamma, beta)`
launches it for a bf16 [M, N] input with bf16 alpha [1], gamma and beta [N].

The wrapper views x as [M, N], allocates y (the harness's y here) and launches a
(cdiv(N, BLOCK_N), M) grid, one program per BLOCK_N-column block of a row, with BLOCK_N,
num_warps and num_stages chosen by the package's autotuner (keyed on N; it benchmarks its
configurations during the harness's warm-up launches): y = tanh(alpha * x) * gamma + beta in
fp32 with libdevice tanh, each program loading alpha, its gamma and beta block and its x
block."""
import triton

from liger_kernel.ops.dyt import _dyt_fwd_kernel

HAVE_BETA = True  # LigerDyT has a bias


def launch(x, alpha, gamma, beta, y, M, N):
    grid = lambda meta: (triton.cdiv(N, meta["BLOCK_N"]), M)
    _dyt_fwd_kernel[grid](x, y, alpha, gamma, beta, HAVE_BETA, N)
