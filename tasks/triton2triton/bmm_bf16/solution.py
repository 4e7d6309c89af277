"""Batched bf16 GEMM C[b] = A[b] * B[b] (row-major A [Bt, M, K], B [Bt, K, N], C [Bt, M, N]) with
fp32 accumulation on the tensor cores.

Tiles fit the per-batch matrix: up to 128 x 128 (8 warps; smaller matrices get power-of-two
tiles down to 16), so a 256 x 256 product is four programs instead of the baseline's 64 and
each A and B element is fetched from L2 a few times instead of N/32 or M/32 times. K advances
64 at a time through a 3-4 stage software pipeline (the baseline waits on every load). The
grid is (tiles of one batch, batch)."""
import triton
import triton.language as tl


@triton.jit
def bmm_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    batch = tl.program_id(1).to(tl.int64)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    m_mask = rm < M
    n_mask = rn < N
    a_ptrs = a_ptr + batch * M * K + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + batch * K * N + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k_mask = (k0 + rk) < K
        a = tl.load(a_ptrs, mask=m_mask[:, None] & k_mask[None, :], other=0.0)
        b = tl.load(b_ptrs, mask=k_mask[:, None] & n_mask[None, :], other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * N
    c_ptrs = c_ptr + batch * M * N + rm[:, None] * N + rn[None, :]
    tl.store(c_ptrs, acc.to(tl.bfloat16), mask=m_mask[:, None] & n_mask[None, :])


def launch(A, B, C, Bt, M, N, K):
    bm = max(16, min(128, triton.next_power_of_2(M)))
    bn = max(16, min(128, triton.next_power_of_2(N)))
    bk = 64 if K >= 64 else max(16, triton.next_power_of_2(K))
    big = bm * bn >= 128 * 128
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn), Bt)
    bmm_kernel[grid](A, B, C, M, N, K, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                     num_warps=8 if big else 4, num_stages=3 if big else 4)
