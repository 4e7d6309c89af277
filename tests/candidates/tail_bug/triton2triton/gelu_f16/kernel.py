"""Wrong tail: the grid covers only whole blocks, so the N % BLOCK last elements are never
written (every seen N is a multiple of BLOCK). Must fail correct_unseen."""
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def gelu_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs).to(tl.float32)
    y = 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))
    tl.store(y_ptr + offs, y.to(tl.float16))


def launch(x, y, N):
    if N >= BLOCK:
        gelu_kernel[(N // BLOCK,)](x, y, N, BLOCK=BLOCK)
