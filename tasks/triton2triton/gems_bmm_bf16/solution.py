"""Batched bf16 matrix product C[b] = A[b] @ B[b] (A [Bt, M, K], B [Bt, K, N], row-major, fp32
accumulation, bf16 C).

The package kernel's tuned list tops out at 128 x 128 tiles with 32-deep K steps, 4 warps and
2-3 pipeline stages: on an H100 that leaves the tensor cores waiting on shared-memory loads
and issues twice as many K steps as needed. Here:
- 128 x 128 tiles (narrower when M or N is small, or when the grid would not fill two programs
  per multiprocessor) with 64-deep K steps, 8 warps (two warpgroups, each issuing 64-row wgmma
  tiles) and a 3-stage cp.async pipeline (96 KB of shared memory, so two programs share a
  multiprocessor and one's epilogue hides behind the other's main loop).
- A 1D grid over (batch, tile) with a grouped tile order inside each batch, so programs that
  run together share rows of A and columns of B in L2.
- Masks only where a dimension has a tail (constexpr flags), 64-bit batch offsets."""
import triton
import triton.language as tl

NUM_SMS = 132  # H100 SXM


@triton.jit
def bmm_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
               GROUP_M: tl.constexpr, EVEN_M: tl.constexpr, EVEN_N: tl.constexpr,
               EVEN_K: tl.constexpr):
    pid = tl.program_id(0)
    batch = tl.program_id(1).to(tl.int64)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    tiles_per_group = GROUP_M * tiles_n
    group_id = pid // tiles_per_group
    group_size = tl.minimum(tiles_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % tiles_per_group) % group_size
    pid_n = (pid % tiles_per_group) // group_size

    a_ptr += batch * M * K
    b_ptr += batch * K * N
    c_ptr += batch * M * N
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    m_mask = rm < M
    n_mask = rn < N
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        if EVEN_K:
            a_mask = m_mask[:, None]
            b_mask = n_mask[None, :]
        else:
            k_mask = (k0 + rk) < K
            a_mask = m_mask[:, None] & k_mask[None, :]
            b_mask = k_mask[:, None] & n_mask[None, :]
        if EVEN_M and EVEN_K:
            a = tl.load(a_ptrs)
        else:
            a = tl.load(a_ptrs, mask=a_mask, other=0.0)
        if EVEN_N and EVEN_K:
            b = tl.load(b_ptrs)
        else:
            b = tl.load(b_ptrs, mask=b_mask, other=0.0)
        acc = tl.dot(a, b, acc, out_dtype=tl.float32)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * N

    c_ptrs = c_ptr + rm[:, None] * N + rn[None, :]
    tl.store(c_ptrs, acc.to(tl.bfloat16), mask=m_mask[:, None] & n_mask[None, :])


def _block(n, cap):
    return min(cap, max(16, triton.next_power_of_2(n)))


def launch(A, B, C, Bt, M, N, K):
    bm = _block(M, 128)
    bn = _block(N, 128)
    bk = _block(K, 64)
    if bm == 128 and triton.cdiv(M, bm) * triton.cdiv(N, bn) * Bt < 2 * NUM_SMS:
        bm = 64  # too few tiles for two programs per multiprocessor: halve them
    warps = 8 if bm * bn >= 128 * 128 else 4
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn), Bt)
    bmm_kernel[grid](A, B, C, M, N, K, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8,
                     EVEN_M=M % bm == 0, EVEN_N=N % bn == 0, EVEN_K=K % bk == 0,
                     num_warps=warps, num_stages=3)
