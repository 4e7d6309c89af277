"""Weight-only int4 GEMM y = x * W^T (x fp16 [M, K]; W int4 [N, K] packed two per byte along K,
low nibble first, zero point 8, fp16 scale per output channel and group of G inputs).

One program per 16 x 32 tile of y on a 2D grid walks K 32 inputs (16 bytes per weight row) at a
time: it loads the packed bytes, splits them into the even-k (low nibble) and odd-k (high
nibble) weights, multiplies each by its group's scale (looked up per element) to get fp16
weights, loads the matching even and odd columns of x, and accumulates the two products with
tl.dot in fp32. y is rounded to fp16 once at the end."""
import triton
import triton.language as tl

BLOCK_M = 16
BLOCK_N = 32
BLOCK_KH = 16  # packed bytes per weight row per step (32 inputs)


@triton.jit
def w4a16_kernel(x_ptr, qw_ptr, s_ptr, y_ptr, M, N, K, G,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_KH: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_m = tl.program_id(1)
    KH = K // 2
    NG = K // G
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    m_mask = rm < M
    n_mask = rn < N
    x_rows = x_ptr + rm.to(tl.int64)[:, None] * K
    q_rows = qw_ptr + rn.to(tl.int64)[:, None] * KH
    s_rows = s_ptr + rn.to(tl.int64)[:, None] * NG
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for kh0 in range(0, KH, BLOCK_KH):
        j = kh0 + tl.arange(0, BLOCK_KH)
        j_mask = j < KH
        k_even = 2 * j
        wmask = n_mask[:, None] & j_mask[None, :]
        q = tl.load(q_rows + j[None, :], mask=wmask, other=0).to(tl.int32)
        s_even = tl.load(s_rows + (k_even // G)[None, :], mask=wmask, other=0.0)
        s_odd = tl.load(s_rows + ((k_even + 1) // G)[None, :], mask=wmask, other=0.0)
        w_even = ((q & 15) - 8).to(tl.float16) * s_even
        w_odd = ((q >> 4) - 8).to(tl.float16) * s_odd
        xmask = m_mask[:, None] & j_mask[None, :]
        x_even = tl.load(x_rows + k_even[None, :], mask=xmask, other=0.0)
        x_odd = tl.load(x_rows + (k_even + 1)[None, :], mask=xmask, other=0.0)
        acc += tl.dot(x_even, tl.trans(w_even))
        acc += tl.dot(x_odd, tl.trans(w_odd))
    y_ptrs = y_ptr + rm.to(tl.int64)[:, None] * N + rn[None, :]
    tl.store(y_ptrs, acc.to(tl.float16), mask=m_mask[:, None] & n_mask[None, :])


def launch(x, qweight, scales, y, M, N, K, G):
    grid = (triton.cdiv(N, BLOCK_N), triton.cdiv(M, BLOCK_M))
    w4a16_kernel[grid](x, qweight, scales, y, M, N, K, G, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                       BLOCK_KH=BLOCK_KH, num_warps=4, num_stages=1)
