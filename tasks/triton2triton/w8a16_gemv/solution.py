"""Weight-only int8 GEMV y = scale * (W * x) (int8 W [M, K] row-major, fp32 per-row scale, fp16 x
and y), fp32 accumulation.

The kernel is a stream over W. Each program owns a block of rows and walks K in chunks of up
to 1024 columns, so one step loads a 16 x 1024 tile of W (16 KB, 64 bytes per thread as four
16-byte vector loads when K is a multiple of 16) instead of the baseline's 256 bytes per
program; many more bytes are in flight per multiprocessor, which is what a memory-bound
kernel needs. The x chunk is loaded once per step and shared by the tile's rows; W is marked
evict-first so it does not push x out of L2. Products accumulate elementwise in fp32 and
each row is reduced once at the end. Short rows get taller tiles (about 16K weights each)."""
import triton
import triton.language as tl


@triton.jit
def w8a16_gemv_kernel(w_ptr, scale_ptr, x_ptr, y_ptr, M, K,
                      BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < M
    w_rows = w_ptr + rows.to(tl.int64)[:, None] * K
    acc = tl.zeros((BLOCK_M, BLOCK_K), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        cols = k0 + tl.arange(0, BLOCK_K)
        col_mask = cols < K
        w = tl.load(w_rows + cols[None, :], mask=row_mask[:, None] & col_mask[None, :], other=0,
                    eviction_policy="evict_first")
        x = tl.load(x_ptr + cols, mask=col_mask, other=0.0).to(tl.float32)
        acc += w.to(tl.float32) * x[None, :]
    s = tl.load(scale_ptr + rows, mask=row_mask, other=0.0)
    y = tl.sum(acc, axis=1) * s
    tl.store(y_ptr + rows, y.to(tl.float16), mask=row_mask)


def launch(W, scale, x, y, M, K):
    bk = min(1024, max(32, triton.next_power_of_2(K)))
    bm = max(16, min(256, 16384 // bk))
    grid = (triton.cdiv(M, bm),)
    w8a16_gemv_kernel[grid](W, scale, x, y, M, K, BLOCK_M=bm, BLOCK_K=bk,
                            num_warps=8 if bm * bk >= 8192 else 4)
