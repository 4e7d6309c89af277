"""RMS normalization over the rows of an M x N bf16 matrix: one program per row, two passes
over the row in blocks of 128 (sum of squares, then scale by the weight). fp32 math."""
import triton
import triton.language as tl

BLOCK = 128


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * N
    y_row = y_ptr + row * N

    # Pass 1: sum of squares.
    ss = 0.0
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < N, other=0.0).to(tl.float32)
        ss += tl.sum(x * x, axis=0)
    rstd = 1.0 / tl.sqrt(ss / N + eps)

    # Pass 2: scale by the reciprocal RMS and the weight.
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_row + cols, (x * rstd * w).to(tl.bfloat16), mask=mask)


def launch(x, weight, y, M, N, eps):
    rmsnorm_kernel[(M,)](x, weight, y, N, eps, BLOCK=BLOCK)
