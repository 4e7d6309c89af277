"""Sum of N fp32 values in two launches. A fixed grid of at most 1024 programs (8 warps each,
all resident at once on an H100) streams x in blocks of 4096 values, program p taking blocks
p, p + grid, ...; each keeps a 4096-wide fp32 accumulator (16 values per thread, loaded as
16-byte vectors: the blocks are unmasked and aligned), and program 0 also adds the masked
tail of N % 4096 values. One tl.sum per program writes a partial to the workspace; a single
program sums the partials into y, so y's initial contents do not matter."""
import triton
import triton.language as tl

BLOCK = 4096
MAX_PROGRAMS = 1024


@triton.jit
def _partial_sums(x_ptr, ws_ptr, n, n_full_blocks, BLOCK: tl.constexpr):
    part = ws_ptr.to(tl.pointer_type(tl.float32))
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for b in range(pid, n_full_blocks, nprog):
        acc += tl.load(x_ptr + b * BLOCK + offs)  # b * BLOCK: aligned, no mask
    if pid == 0:
        tail = n_full_blocks * BLOCK + offs
        acc += tl.load(x_ptr + tail, mask=tail < n, other=0.0)
    tl.store(part + pid, tl.sum(acc, axis=0))


@triton.jit
def _final_sum(ws_ptr, y_ptr, count, BLOCK: tl.constexpr):
    part = ws_ptr.to(tl.pointer_type(tl.float32))
    offs = tl.arange(0, BLOCK)
    p = tl.load(part + offs, mask=offs < count, other=0.0)
    tl.store(y_ptr, tl.sum(p, axis=0))


def workspace_bytes(N):
    return MAX_PROGRAMS * 4


def launch(x, y, N, workspace):
    full = N // BLOCK
    programs = max(1, min(MAX_PROGRAMS, full))
    _partial_sums[(programs,)](x, workspace, N, full, BLOCK=BLOCK, num_warps=8)
    _final_sum[(1,)](workspace, y, programs, BLOCK=MAX_PROGRAMS, num_warps=4)
