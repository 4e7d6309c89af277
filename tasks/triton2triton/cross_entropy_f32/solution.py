"""Per-row softmax cross-entropy over fp32 logits in one read of each row (online logsumexp):
  - pass 1: a (M, S) grid; program (row, s) takes a run of the row's chunks (BLOCK values
    each, S chosen so that the grid holds about 1024 programs: long rows of few rows are
    split). Every lane keeps a running maximum and a sum of exp(x - max) rescaled whenever its
    maximum grows, so the chunk loop has no cross-lane reduction at all; one merge at the end
    gives the program's (max, sum), written to the workspace. The running maximum starts at a
    finite -3e38, so padded lanes (-inf) never compute inf - inf;
  - pass 2: one program per row merges its S pairs and writes max + log(sum) - x[target]."""
import triton
import triton.language as tl

TARGET_PROGRAMS = 1024
MAX_BLOCK = 4096


def _plan(M, V):
    block = min(MAX_BLOCK, max(128, triton.next_power_of_2(V)))
    chunks = triton.cdiv(V, block)
    splits = min(chunks, max(1, triton.cdiv(TARGET_PROGRAMS, M)))
    per_split = triton.cdiv(chunks, splits)
    splits = triton.cdiv(chunks, per_split)
    return block, chunks, splits, per_split


@triton.jit
def _lse_partial(x_ptr, ws_ptr, M, V, CHUNKS, S, PER_SPLIT, BLOCK: tl.constexpr):
    ws = ws_ptr.to(tl.pointer_type(tl.float32))
    row = tl.program_id(0)
    sp = tl.program_id(1)
    base = x_ptr + row.to(tl.int64) * V
    offs = tl.arange(0, BLOCK)
    m_vec = tl.full([BLOCK], -3.0e38, tl.float32)
    s_vec = tl.zeros([BLOCK], dtype=tl.float32)
    c_begin = sp * PER_SPLIT
    c_end = tl.minimum(c_begin + PER_SPLIT, CHUNKS)
    for c in range(c_begin, c_end):
        o = c * BLOCK + offs
        v = tl.load(base + o, mask=o < V, other=float("-inf"))
        m_new = tl.maximum(m_vec, v)
        s_vec = s_vec * tl.exp(m_vec - m_new) + tl.exp(v - m_new)
        m_vec = m_new
    m = tl.max(m_vec, axis=0)
    s = tl.sum(s_vec * tl.exp(m_vec - m), axis=0)
    at = row * S + sp
    tl.store(ws + at, m)
    tl.store(ws + M * S + at, s)


@triton.jit
def _ce_final(x_ptr, target_ptr, ws_ptr, loss_ptr, M, V, S, BLOCK_S: tl.constexpr):
    ws = ws_ptr.to(tl.pointer_type(tl.float32))
    row = tl.program_id(0)
    o = tl.arange(0, BLOCK_S)
    mask = o < S
    pm = tl.load(ws + row * S + o, mask=mask, other=float("-inf"))
    ps = tl.load(ws + M * S + row * S + o, mask=mask, other=0.0)
    m = tl.max(pm, axis=0)
    s = tl.sum(ps * tl.exp(pm - m), axis=0)  # padded entries: 0 * exp(-inf) = 0
    t = tl.load(target_ptr + row)
    xt = tl.load(x_ptr + row.to(tl.int64) * V + t)
    tl.store(loss_ptr + row, (m + tl.log(s)) - xt)


def workspace_bytes(M, V):
    _, _, splits, _ = _plan(M, V)
    return 2 * M * splits * 4


def launch(logits, target, loss, M, V, workspace):
    block, chunks, splits, per_split = _plan(M, V)
    warps = max(1, min(8, block // 512))
    _lse_partial[(M, splits)](logits, workspace, M, V, chunks, splits, per_split,
                              BLOCK=block, num_warps=warps)
    block_s = max(16, triton.next_power_of_2(splits))
    _ce_final[(M,)](logits, target, workspace, loss, M, V, splits, BLOCK_S=block_s,
                    num_warps=1)
