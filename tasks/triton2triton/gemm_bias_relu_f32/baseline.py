"""fp32 linear layer C = relu(A * B + bias) in two kernels: a GEMM with one program per 32 x 32
tile of C (tl.dot in full fp32, K in 32-wide slices) writes A * B to C, then an elementwise
kernel re-reads C row by row, adds the bias and applies the relu in place."""
import triton
import triton.language as tl

BLOCK_M = 32
BLOCK_N = 32
BLOCK_K = 32
EPI_BLOCK = 1024


@triton.jit
def gemm_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    m_mask = rm < M
    n_mask = rn < N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        k_mask = kk < K
        a = tl.load(a_ptr + rm.to(tl.int64)[:, None] * K + kk[None, :],
                    mask=m_mask[:, None] & k_mask[None, :], other=0.0)
        b = tl.load(b_ptr + kk.to(tl.int64)[:, None] * N + rn[None, :],
                    mask=k_mask[:, None] & n_mask[None, :], other=0.0)
        # ieee: tl.dot would otherwise round fp32 inputs to TF32.
        acc += tl.dot(a, b, input_precision="ieee")
    c_ptrs = c_ptr + rm.to(tl.int64)[:, None] * N + rn[None, :]
    tl.store(c_ptrs, acc, mask=m_mask[:, None] & n_mask[None, :])


@triton.jit
def bias_relu_kernel(c_ptr, bias_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    ptrs = c_ptr + row.to(tl.int64) * N + cols
    c = tl.load(ptrs, mask=mask, other=0.0)
    b = tl.load(bias_ptr + cols, mask=mask, other=0.0)
    tl.store(ptrs, tl.maximum(c + b, 0.0), mask=mask)


def launch(A, B, bias, C, M, N, K):
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    gemm_kernel[grid](A, B, C, M, N, K, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                      num_warps=4, num_stages=1)
    bias_relu_kernel[(M, triton.cdiv(N, EPI_BLOCK))](C, bias, N, BLOCK=EPI_BLOCK)
