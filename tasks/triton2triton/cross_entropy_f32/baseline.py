"""Per-row softmax cross-entropy over fp32 logits: one program per row, two passes over the
row in chunks of 1024 (the maximum, then the sum of exp(x - max)), each chunk reduced on the
spot; the program writes max + log(sum) - x[target]."""
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _cross_entropy(x_ptr, target_ptr, loss_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = x_ptr + row.to(tl.int64) * V
    offs = tl.arange(0, BLOCK)

    # Pass 1: row maximum.
    m = tl.max(tl.load(base + offs, mask=offs < V, other=float("-inf")), axis=0)
    for start in range(BLOCK, V, BLOCK):
        o = start + offs
        m = tl.maximum(m, tl.max(tl.load(base + o, mask=o < V, other=float("-inf")), axis=0))

    # Pass 2: sum of exp(x - max); masked lanes give exp(-inf) = 0.
    s = tl.sum(tl.exp(tl.load(base + offs, mask=offs < V, other=float("-inf")) - m), axis=0)
    for start in range(BLOCK, V, BLOCK):
        o = start + offs
        s += tl.sum(tl.exp(tl.load(base + o, mask=o < V, other=float("-inf")) - m), axis=0)

    t = tl.load(target_ptr + row)
    tl.store(loss_ptr + row, (m + tl.log(s)) - tl.load(base + t))


def launch(logits, target, loss, M, V):
    _cross_entropy[(M,)](logits, target, loss, V, BLOCK=BLOCK)
