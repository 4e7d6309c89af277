"""GEGLU forward (tanh-approximated GELU) over bf16 [M, N] gate and up tensors:
c = 0.5 * a * (1 + tanh(z)) * b with z = sqrt(2/pi) * (a + 0.044715 a^3), fp32 math, one
rounding to bf16.

liger launches one program per row with BLOCK_SIZE = next_power_of_2(N) and its libdevice
tanh, a branchy, accurate routine: at N = 14336 a program needs 91 registers (16 warps, one
program per SM), at N = 24576 and 36864 it is 32 warps capped at 64 registers and spills
(24 and 406 bytes per thread, ptxas for sm_90); one program per SM runs its loads, math and
stores in turn with nothing to overlap them, and a grid of one row per program ends in a
ragged last wave. Here the operation is elementwise over M * N contiguous values: each
program takes 4096 consecutive values (8 warps, 16 per thread, 16-byte accesses, only the
last program masked, 32 registers: 8 programs per SM), and 0.5 * (1 + tanh(z)) is computed
as the identical sigmoid(2z) = 1 / (1 + exp(-2z)): one exp and one division, accurate for
every a (1 + tanh(z) loses every digit for very negative a)."""
import triton
import triton.language as tl

BLOCK = 4096
NUM_WARPS = 8
SQRT_2_OVER_PI = tl.constexpr(0.7978845608028654)


@triton.jit
def geglu_flat(a_ptr, b_ptr, c_ptr, total, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    a = tl.load(a_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first").to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first").to(tl.float32)
    z2 = (2.0 * SQRT_2_OVER_PI) * (a + 0.044715 * a * a * a)
    c = a / (1.0 + tl.exp(-z2)) * b
    tl.store(c_ptr + offs, c.to(tl.bfloat16), mask=mask)


def launch(a, b, c, M, N):
    total = M * N
    geglu_flat[(triton.cdiv(total, BLOCK),)](a, b, c, total, BLOCK=BLOCK, num_warps=NUM_WARPS)
