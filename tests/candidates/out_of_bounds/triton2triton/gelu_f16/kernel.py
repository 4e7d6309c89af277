"""Off by one: the mask lets one element past the end through (offs <= N), and the grid has
room for it, so y[N] is written. Must fail correct_seen (red zone)."""
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def gelu_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs <= N
    x = tl.load(x_ptr + offs, mask=offs < N, other=0.0).to(tl.float32)
    y = 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))
    tl.store(y_ptr + offs, y.to(tl.float16), mask=mask)


def launch(x, y, N):
    gelu_kernel[(triton.cdiv(N + 1, BLOCK),)](x, y, N, BLOCK=BLOCK)
