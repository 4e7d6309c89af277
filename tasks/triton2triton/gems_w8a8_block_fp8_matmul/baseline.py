"""Block-scaled fp8 linear layer (DeepSeek-V3 style): C[m, n] = sum over 128-wide K blocks kb of
As[m, kb] * Bs[n // 128, kb] * sum_{k in kb} A[m, k] * W[n, k], with A and W fp8 e4m3 (carried
as uint8 codes and viewed as torch.float8_e4m3fn), fp32 scales per 1 x 128 activation group and
per 128 x 128 weight block, bf16 C, with FlagGems' w8a8 block fp8 matmul kernel.

Package: flag-gems 5.0.2 (Apache-2.0). Callable:
flag_gems.ops.w8a8_block_fp8_matmul.w8a8_block_fp8_matmul(A, W, As, Bs, [128, 128]) (output
bf16). That wrapper allocates C, asks get_w8a8_block_fp8_configs(N, K, 128, 128) for a tuned
config (FlagGems 5.0.2 ships no such file, so it falls back to
_get_default_w8a8_block_fp8_config(128, 128)) and launches w8a8_block_fp8_matmul_kernel on
cdiv(M, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N) programs with the operands' strides. This launch
makes the same calls on the harness's C (no allocation)."""
import torch
import triton
from flag_gems.ops.w8a8_block_fp8_matmul import (
    _get_default_w8a8_block_fp8_config,
    get_w8a8_block_fp8_configs,
    w8a8_block_fp8_matmul_kernel,
)

BLOCK_N = 128  # weight block [128, 128], activation group 128 (DeepSeek-V3)
BLOCK_K = 128


def launch(A, As, W, Bs, C, M, N, K):
    a = A.view(torch.float8_e4m3fn)
    b = W.view(torch.float8_e4m3fn)
    configs = get_w8a8_block_fp8_configs(N, K, BLOCK_N, BLOCK_K)
    if configs:
        config = configs[min(configs.keys(), key=lambda x: abs(x - M))]
    else:
        config = _get_default_w8a8_block_fp8_config(BLOCK_N, BLOCK_K)
    grid = lambda META: (triton.cdiv(M, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"]),)
    w8a8_block_fp8_matmul_kernel[grid](
        a, b, C, As, Bs, M, N, K, BLOCK_N, BLOCK_K,
        a.stride(-2), a.stride(-1), b.stride(1), b.stride(0), C.stride(-2), C.stride(-1),
        As.stride(-2), As.stride(-1), Bs.stride(1), Bs.stride(0), **config)
