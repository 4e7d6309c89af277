"""Row argmax over an M x N fp32 matrix: one program per row walks the row in chunks of 128
values; each chunk's maximum and first index (tl.max, tl.argmax) replace the running best only
when strictly larger, so ties keep the first index."""
import triton
import triton.language as tl

BLOCK = 128


@triton.jit
def _argmax_rows(x_ptr, idx_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = x_ptr + row.to(tl.int64) * N
    offs = tl.arange(0, BLOCK)
    v = tl.load(base + offs, mask=offs < N, other=float("-inf"))
    best = tl.max(v, axis=0)
    best_i = tl.argmax(v, axis=0, tie_break_left=True)
    for start in range(BLOCK, N, BLOCK):
        o = start + offs
        v = tl.load(base + o, mask=o < N, other=float("-inf"))
        m = tl.max(v, axis=0)
        i = tl.argmax(v, axis=0, tie_break_left=True) + start
        better = m > best
        best = tl.where(better, m, best)
        best_i = tl.where(better, i, best_i)
    tl.store(idx_ptr + row, best_i.to(tl.int64))


def launch(x, idx, M, N):
    _argmax_rows[(M,)](x, idx, N, BLOCK=BLOCK)
