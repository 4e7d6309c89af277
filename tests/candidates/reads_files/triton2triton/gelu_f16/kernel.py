"""Reads the harness's files (a task's hidden configurations or results) at import time.
Must fail compile (file access is refused before the module ever runs)."""
import triton
import triton.language as tl

with open("../../task.json") as f:
    HIDDEN = f.read()

BLOCK = 1024


@triton.jit
def gelu_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + offs, (0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))).to(tl.float16), mask=mask)


def launch(x, y, N):
    gelu_kernel[(triton.cdiv(N, BLOCK),)](x, y, N, BLOCK=BLOCK)
