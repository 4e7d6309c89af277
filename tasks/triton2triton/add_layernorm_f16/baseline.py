"""Residual add + layer normalization over fp16 rows, in two kernels: an elementwise kernel
writes h = fp16(x + r); a row kernel (one program per row) reads h back three times in
blocks of 128 (mean, variance about the mean, normalize). fp32 math."""
import triton
import triton.language as tl

ADD_BLOCK = 1024
ROW_BLOCK = 128


@triton.jit
def add_kernel(x_ptr, r_ptr, h_ptr, total, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    a = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(r_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(h_ptr + offs, (a + b).to(tl.float16), mask=mask)


@triton.jit
def layernorm_kernel(h_ptr, gamma_ptr, beta_ptr, y_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    h_row = h_ptr + row * N
    y_row = y_ptr + row * N

    # Pass 1: mean.
    s = 0.0
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        s += tl.sum(tl.load(h_row + cols, mask=cols < N, other=0.0).to(tl.float32), axis=0)
    mean = s / N

    # Pass 2: biased variance about the mean.
    v = 0.0
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        h = tl.load(h_row + cols, mask=mask, other=0.0).to(tl.float32)
        d = tl.where(mask, h - mean, 0.0)
        v += tl.sum(d * d, axis=0)
    rstd = 1.0 / tl.sqrt(v / N + eps)

    # Pass 3: normalize, scale and shift.
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        h = tl.load(h_row + cols, mask=mask, other=0.0).to(tl.float32)
        g = tl.load(gamma_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(beta_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_row + cols, ((h - mean) * rstd * g + b).to(tl.float16), mask=mask)


def launch(x, r, gamma, beta, h, y, M, N, eps):
    total = M * N
    add_kernel[(triton.cdiv(total, ADD_BLOCK),)](x, r, h, total, BLOCK=ADD_BLOCK)
    layernorm_kernel[(M,)](h, gamma, beta, y, N, eps, BLOCK=ROW_BLOCK)
