"""int8 GEMM with dequantizing epilogue C = (A * W) * sa[m] * sw[n] (A int8 [M, K], W int8 [K, N],
fp32 per-row and per-column scales, fp16 C): one program per 32 x 32 tile of C on a 2D grid
steps through K 32 at a time with an int8 tl.dot into an int32 accumulator, then converts the
tile to fp32, applies both scales and rounds to fp16 once."""
import triton
import triton.language as tl

BLOCK_M = 32
BLOCK_N = 32
BLOCK_K = 32


@triton.jit
def w8a8_kernel(a_ptr, sa_ptr, w_ptr, sw_ptr, c_ptr, M, N, K,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    m_mask = rm < M
    n_mask = rn < N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        k_mask = kk < K
        a = tl.load(a_ptr + rm.to(tl.int64)[:, None] * K + kk[None, :],
                    mask=m_mask[:, None] & k_mask[None, :], other=0)
        w = tl.load(w_ptr + kk.to(tl.int64)[:, None] * N + rn[None, :],
                    mask=k_mask[:, None] & n_mask[None, :], other=0)
        acc += tl.dot(a, w)
    sa = tl.load(sa_ptr + rm, mask=m_mask, other=0.0)
    sw = tl.load(sw_ptr + rn, mask=n_mask, other=0.0)
    c = acc.to(tl.float32) * sa[:, None] * sw[None, :]
    c_ptrs = c_ptr + rm.to(tl.int64)[:, None] * N + rn[None, :]
    tl.store(c_ptrs, c.to(tl.float16), mask=m_mask[:, None] & n_mask[None, :])


def launch(A, sa, W, sw, C, M, N, K):
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    w8a8_kernel[grid](A, sa, W, sw, C, M, N, K, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                      BLOCK_K=BLOCK_K, num_warps=4, num_stages=1)
