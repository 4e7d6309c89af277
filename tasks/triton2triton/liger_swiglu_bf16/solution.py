"""SwiGLU forward over bf16 [M, N] gate and up tensors: c = silu(a) * b, fp32 math, one
rounding to bf16.

liger launches one program per row with BLOCK_SIZE = next_power_of_2(N): for N = 14336 an
eighth of the lanes are masked off (16 warps, 3 programs per SM), for N = 18944
(Qwen-2.5-7B) 42 % are and each program is 32 warps, so an SM holds one program and its
loads, math and stores run in turn with nothing to overlap them; a grid of one row per
program also ends in a ragged last wave of 84-114 KB programs. The three tensors are
contiguous and the same shape, so here the operation is elementwise over M * N values: each
program takes 4096 consecutive values (8 warps, 16 per thread, 16-byte accesses, only the
last program masked, 32 registers: 8 programs per SM), so many independent programs overlap
on every SM and the last wave is short."""
import triton
import triton.language as tl

BLOCK = 4096
NUM_WARPS = 8


@triton.jit
def swiglu_flat(a_ptr, b_ptr, c_ptr, total, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    a = tl.load(a_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first").to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first").to(tl.float32)
    c = a / (1.0 + tl.exp(-a)) * b
    tl.store(c_ptr + offs, c.to(tl.bfloat16), mask=mask)


def launch(a, b, c, M, N):
    total = M * N
    swiglu_flat[(triton.cdiv(total, BLOCK),)](a, b, c, total, BLOCK=BLOCK, num_warps=NUM_WARPS)
