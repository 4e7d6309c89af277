"""Row scatter-add out[idx[t], :] += src[t, :] over fp32: a kernel zeroes out, then one program
per 256 elements of src finds each element's row and column by dividing its flat index by D
and adds the value into out with an atomic."""
import triton
import triton.language as tl

BLOCK = 256


@triton.jit
def _zero(out_ptr, total, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32), mask=offs < total)


@triton.jit
def _scatter_add(src_ptr, idx_ptr, out_ptr, total, D, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    t = offs // D
    c = offs - t * D
    row = tl.load(idx_ptr + t, mask=mask, other=0)
    v = tl.load(src_ptr + offs, mask=mask, other=0.0)
    tl.atomic_add(out_ptr + row.to(tl.int64) * D + c, v, mask=mask)


def launch(src, idx, out, T, D, V):
    out_total = V * D
    src_total = T * D
    _zero[(triton.cdiv(out_total, BLOCK),)](out, out_total, BLOCK=BLOCK)
    _scatter_add[(triton.cdiv(src_total, BLOCK),)](src, idx, out, src_total, D, BLOCK=BLOCK)
