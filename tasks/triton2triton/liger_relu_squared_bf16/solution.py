"""ReLU² forward over a bf16 [M, N] matrix: y = max(x, 0)^2, rounded to bf16 once.

liger launches one program per row with BLOCK_SIZE = next_power_of_2(N): for N = 24576 a
quarter of the lanes are masked off and each program is 32 warps, so an SM holds two
programs, each loading its whole 48 KB row before it stores anything (N = 14336: 16 warps,
4 programs per SM); a grid of one row per program also ends in a ragged last wave.
x and y are contiguous and the same shape, so here the operation is elementwise over M * N
values: each program takes 4096 consecutive values (8 warps, 16 per thread, 16-byte
accesses, only the last program masked, 25 registers: 8 programs per SM), so many
independent programs overlap on every SM and the last wave is short."""
import triton
import triton.language as tl

BLOCK = 4096
NUM_WARPS = 8


@triton.jit
def relu_squared_flat(x_ptr, y_ptr, total, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    x = tl.load(x_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first").to(tl.float32)
    r = tl.maximum(x, 0.0)
    tl.store(y_ptr + offs, (r * r).to(tl.bfloat16), mask=mask)


def launch(x, y, M, N):
    total = M * N
    relu_squared_flat[(triton.cdiv(total, BLOCK),)](x, y, total, BLOCK=BLOCK, num_warps=NUM_WARPS)
