"""Sum of N fp32 values: one element per thread, a block-wide tl.sum per program that writes one
partial sum per program, and the same kernel again over the partials (kept in the workspace)
until a single value remains, written to y."""
import triton
import triton.language as tl

BLOCK = 128  # the default 4 warps: one element per thread


@triton.jit
def _block_sum(in_ptr, out_ptr, n, BLOCK: tl.constexpr):
    src = in_ptr.to(tl.pointer_type(tl.float32))  # x, or a level of partials in the workspace
    dst = out_ptr.to(tl.pointer_type(tl.float32))
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(src + offs, mask=offs < n, other=0.0)
    tl.store(dst + pid, tl.sum(v, axis=0))


def _blocks(n):
    return triton.cdiv(n, BLOCK)


def workspace_bytes(N):
    # Two partial-sum buffers: level 1 (one value per block of x) and level 2.
    b1 = _blocks(N)
    return (b1 + _blocks(b1)) * 4


def launch(x, y, N, workspace):
    b1 = _blocks(N)
    bufs = (workspace[: b1 * 4], workspace[b1 * 4:])
    src, count, level = x, N, 0
    while True:
        blocks = _blocks(count)
        dst = y if blocks == 1 else bufs[level % 2]
        _block_sum[(blocks,)](src, dst, count, BLOCK=BLOCK)
        if blocks == 1:
            break
        src, count, level = dst, blocks, level + 1
