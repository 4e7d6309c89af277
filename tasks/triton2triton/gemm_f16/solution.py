"""fp16 GEMM C = A * B (row-major A [M, K], B [K, N], C [M, N]) with fp32 accumulation on the
tensor cores.

Tiles start at 128 x 128 (8 warps) and are halved, down to 64 x 64, while the grid would leave
the 132 multiprocessors of an H100 without a tile each; tiny dimensions get 16-row or -column
tiles. K advances 64 at a time through a 3-4 stage software pipeline (num_stages), so the
loads of later slices overlap the tensor-core work on the current one. Programs are ordered
in groups of 8 tile rows so that neighbouring programs reuse the same A rows and B columns
from L2. The baseline's 32 x 32 tiles with no pipelining re-read A and B many more times and
wait on every load."""
import triton
import triton.language as tl

NUM_SMS = 132  # H100 SXM
GROUP_M = 8


@triton.jit
def gemm_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    # Grouped ordering: GROUP_M tile rows are swept column by column.
    group_size = GROUP_M * num_pid_n
    first_m = (pid // group_size) * GROUP_M
    rows_in_group = tl.minimum(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group_size) % rows_in_group
    pid_n = (pid % group_size) // rows_in_group

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    m_mask = rm < M
    n_mask = rn < N
    a_ptrs = a_ptr + rm.to(tl.int64)[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk.to(tl.int64)[:, None] * N + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k_mask = (k0 + rk) < K
        a = tl.load(a_ptrs, mask=m_mask[:, None] & k_mask[None, :], other=0.0)
        b = tl.load(b_ptrs, mask=k_mask[:, None] & n_mask[None, :], other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * N
    c_ptrs = c_ptr + rm.to(tl.int64)[:, None] * N + rn[None, :]
    tl.store(c_ptrs, acc.to(tl.float16), mask=m_mask[:, None] & n_mask[None, :])


def _tiles(M, N):
    bm, bn = 128, 128
    while triton.cdiv(M, bm) * triton.cdiv(N, bn) < NUM_SMS and (bm > 64 or bn > 64):
        if bn >= bm:
            bn //= 2
        else:
            bm //= 2
    bm = max(16, min(bm, triton.next_power_of_2(M)))
    bn = max(16, min(bn, triton.next_power_of_2(N)))
    return bm, bn


def launch(A, B, C, M, N, K):
    bm, bn = _tiles(M, N)
    bk = 64 if K >= 64 else max(16, triton.next_power_of_2(K))
    big = bm * bn >= 128 * 128
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
    gemm_kernel[grid](A, B, C, M, N, K, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=GROUP_M,
                      num_warps=8 if big else 4, num_stages=3 if big else 4)
