"""Embedding lookup out[t, :] = table[ids[t], :] over fp16: one program per 256 output elements
of the flattened [T, D] output; each element finds its token and column by dividing its flat
index by D and copies one value."""
import triton
import triton.language as tl

BLOCK = 256


@triton.jit
def _gather(table_ptr, ids_ptr, out_ptr, total, D, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    t = offs // D
    c = offs - t * D
    row = tl.load(ids_ptr + t, mask=mask, other=0)
    v = tl.load(table_ptr + row.to(tl.int64) * D + c, mask=mask)
    tl.store(out_ptr + offs, v, mask=mask)


def launch(table, ids, out, T, D, V):
    total = T * D
    _gather[(triton.cdiv(total, BLOCK),)](table, ids, out, total, D, BLOCK=BLOCK)
