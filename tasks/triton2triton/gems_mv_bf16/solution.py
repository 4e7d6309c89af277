"""bf16 matrix-vector product y = A @ x (A [M, K] row-major, x [K], fp32 accumulation, bf16 y),
built for tall tables of short rows (scoring a query against millions of embeddings), where
the product is one pass over A.

The package kernel gives each program at most 8 rows and 128 columns per step, so with rows of
64-768 elements a program moves 1-12 KB in one to six steps, and the 130k-260k programs of a
256 MB table are issued faster than they can finish: the machine is bound by launching and
retiring programs, not by memory. Here each program takes a 16 KB slab (8192 elements: 32-128
rows of up to 256 columns per step), 8 warps load it with 16-byte vectors, multiply by the
vector (kept in L1/L2) in fp32 and reduce each row once; the grid is 16-32x smaller and every
multiprocessor keeps about 128 KB of loads in flight."""
import triton
import triton.language as tl

SLAB = 8192  # elements of A per program and step


@triton.jit
def mv_kernel(a_ptr, x_ptr, y_ptr, M, K, ROWS: tl.constexpr, BLOCK_K: tl.constexpr,
              EVEN_K: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * ROWS + tl.arange(0, ROWS)
    r_mask = rows < M
    cols = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rows[:, None] * K + cols[None, :]
    acc = tl.zeros((ROWS, BLOCK_K), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        if EVEN_K:
            a = tl.load(a_ptrs, mask=r_mask[:, None], other=0.0, eviction_policy="evict_first")
            x = tl.load(x_ptr + k0 + cols)
        else:
            k_mask = (k0 + cols) < K
            a = tl.load(a_ptrs, mask=r_mask[:, None] & k_mask[None, :], other=0.0,
                        eviction_policy="evict_first")
            x = tl.load(x_ptr + k0 + cols, mask=k_mask, other=0.0)
        acc += a.to(tl.float32) * x.to(tl.float32)[None, :]
        a_ptrs += BLOCK_K
    tl.store(y_ptr + rows, tl.sum(acc, axis=1).to(tl.bfloat16), mask=r_mask)


def launch(A, x, y, M, K):
    block_k = min(256, triton.next_power_of_2(K))
    rows = SLAB // block_k
    mv_kernel[(triton.cdiv(M, rows),)](A, x, y, M, K, ROWS=rows, BLOCK_K=block_k,
                                       EVEN_K=K % block_k == 0, num_warps=8)
