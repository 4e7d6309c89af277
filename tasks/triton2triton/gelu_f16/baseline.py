"""Exact (erf) GELU over a flat fp16 tensor: one program per block of 128 elements, fp32 math."""
import triton
import triton.language as tl

BLOCK = 128


@triton.jit
def gelu_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))
    tl.store(y_ptr + offs, y.to(tl.float16), mask=mask)


def launch(x, y, N):
    grid = (triton.cdiv(N, BLOCK),)
    gelu_kernel[grid](x, y, N, BLOCK=BLOCK)
