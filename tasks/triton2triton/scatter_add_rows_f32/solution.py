"""Row scatter-add out[v, :] = sum of src[t, :] with idx[t] == v, without float atomics and
without a zeroing pass over out. Three launches:
  1. head[v] = -1 for every output row (workspace);
  2. every source row pushes itself on its output row's list:
     next[t] = atomic_xchg(&head[idx[t]], t)  (T integer atomics instead of T * D float ones);
  3. one program per output row walks its list, sums those source rows in fp32 registers
     (BLOCK_D columns at a time, 16-byte loads when D % 16 == 0) and writes the row once; a row
     no source row lands on is written as zeros. src is read once and out written once, where
     zero-then-atomic_add writes out twice and, once out outgrows the L2, reads it back too.
Summation order within a row is the list order (any order is allowed)."""
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _init_heads(ws_ptr, V, BLOCK: tl.constexpr):
    head = ws_ptr.to(tl.pointer_type(tl.int32))
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(head + offs, tl.full([BLOCK], -1, tl.int32), mask=offs < V)


@triton.jit
def _link_rows(idx_ptr, ws_ptr, T, V, BLOCK: tl.constexpr):
    head = ws_ptr.to(tl.pointer_type(tl.int32))
    nxt = head + V
    t = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = t < T
    r = tl.load(idx_ptr + t, mask=mask, other=0)
    prev = tl.atomic_xchg(head + r, t, mask=mask, sem="relaxed")
    tl.store(nxt + t, prev, mask=mask)


@triton.jit
def _sum_rows(src_ptr, ws_ptr, out_ptr, V, D, BLOCK_D: tl.constexpr):
    head = ws_ptr.to(tl.pointer_type(tl.int32))
    nxt = head + V
    v = tl.program_id(0)
    first = tl.load(head + v)
    out_row = out_ptr + v.to(tl.int64) * D
    cols0 = tl.arange(0, BLOCK_D)
    for c0 in range(0, D, BLOCK_D):
        cols = c0 + cols0
        cmask = cols < D
        acc = tl.zeros([BLOCK_D], dtype=tl.float32)
        t = first
        while t >= 0:
            acc += tl.load(src_ptr + t.to(tl.int64) * D + cols, mask=cmask, other=0.0)
            t = tl.load(nxt + t)
        tl.store(out_row + cols, acc, mask=cmask)


def workspace_bytes(T, D, V):
    return (V + T) * 4


def launch(src, idx, out, T, D, V, workspace):
    block_d = min(2048, max(16, triton.next_power_of_2(D)))
    warps = 1 if block_d <= 128 else (2 if block_d <= 256 else 4)
    _init_heads[(triton.cdiv(V, BLOCK),)](workspace, V, BLOCK=BLOCK)
    _link_rows[(triton.cdiv(T, BLOCK),)](idx, workspace, T, V, BLOCK=BLOCK)
    _sum_rows[(V,)](src, workspace, out, V, D, BLOCK_D=block_d, num_warps=warps)
