"""Weight-only int8 GEMV y = scale * (W * x) (int8 W [M, K] row-major, fp32 per-row scale, fp16 x
and y), fp32 accumulation: one program per row walks the row in 256-element blocks,
accumulating int8 * fp16 products in an fp32 vector, then sums it, scales and rounds to fp16."""
import triton
import triton.language as tl

BLOCK_K = 256


@triton.jit
def w8a16_gemv_kernel(w_ptr, scale_ptr, x_ptr, y_ptr, K, BLOCK_K: tl.constexpr):
    row = tl.program_id(0)
    w_row = w_ptr + row.to(tl.int64) * K
    acc = tl.zeros((BLOCK_K,), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        cols = k0 + tl.arange(0, BLOCK_K)
        mask = cols < K
        w = tl.load(w_row + cols, mask=mask, other=0).to(tl.float32)
        x = tl.load(x_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        acc += w * x
    s = tl.load(scale_ptr + row)
    tl.store(y_ptr + row, (tl.sum(acc, axis=0) * s).to(tl.float16))


def launch(W, scale, x, y, M, K):
    w8a16_gemv_kernel[(M,)](W, scale, x, y, K, BLOCK_K=BLOCK_K)
