"""Cached output: computes each size once, keeps the output tensor and later only copies it
(with a Triton kernel, so no PyTorch operator runs). Right for a repeat of the same inputs,
wrong for fresh ones. Must fail correct_seen (the second input draw)."""
import triton
import triton.language as tl

BLOCK = 1024
_answers = {}  # N -> the first output computed for that size


@triton.jit
def gelu_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))
    tl.store(y_ptr + offs, y.to(tl.float16), mask=mask)


@triton.jit
def copy_kernel(src_ptr, dst_ptr, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)


def launch(x, y, N):
    grid = (triton.cdiv(N, BLOCK),)
    if N in _answers:
        copy_kernel[grid](_answers[N], y, N, BLOCK=BLOCK)
    else:
        gelu_kernel[grid](x, y, N, BLOCK=BLOCK)
        _answers[N] = y
