"""One AdamW step over all L layers in a single launch. The parameters are one flat buffer whose
layout is known from (L, D): layer l holds [D*D weight | D bias | D norm weight | D norm bias],
so whether an element is decayed is (i mod (D*D + 3D)) < D*D and no per-tensor launches are
needed. Each program updates 2048 consecutive elements (8 per thread: 16-byte loads and
stores of param, exp_avg and exp_avg_sq, 16-byte loads of 8 fp16 gradients). The position in
the layer is one scalar modulo per program: when a layer is at least a block long the block
wraps into the next layer at most once, else a per-element modulo is used. The bias
corrections and the decay factor are computed once on the host in double."""
import math
import struct

import triton
import triton.language as tl

BLOCK = 2048


def _f32(v):
    """The fp32 value a float param stands for."""
    return struct.unpack("f", struct.pack("f", v))[0]


@triton.jit
def _adamw_flat(p_ptr, g_ptr, m_ptr, v_ptr, n, per_layer, dd, beta1, beta2, one_minus_beta1,
                one_minus_beta2, eps, decay, step_size, inv_bc2_sqrt,
                BLOCK: tl.constexpr, WRAP_ONCE: tl.constexpr):
    start = tl.program_id(0).to(tl.int64) * BLOCK
    lane = tl.arange(0, BLOCK)
    offs = start + lane
    mask = offs < n
    # Position inside the layer.
    pos = start % per_layer + lane
    if WRAP_ONCE:
        pos = tl.where(pos >= per_layer, pos - per_layer, pos)
    else:
        pos = pos % per_layer
    decayed = pos < dd

    g = tl.load(g_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    p = tl.load(p_ptr + offs, mask=mask, other=0.0)
    m = tl.load(m_ptr + offs, mask=mask, other=0.0)
    v = tl.load(v_ptr + offs, mask=mask, other=1.0)
    m = beta1 * m + one_minus_beta1 * g
    v = beta2 * v + one_minus_beta2 * (g * g)
    tl.store(m_ptr + offs, m, mask=mask)
    tl.store(v_ptr + offs, v, mask=mask)
    denom = tl.sqrt_rn(v) * inv_bc2_sqrt + eps
    p = tl.where(decayed, p * decay, p) - tl.div_rn(step_size * m, denom)
    tl.store(p_ptr + offs, p, mask=mask)


def launch(param, grad, exp_avg, exp_avg_sq, L, D, step, lr, beta1, beta2, eps, weight_decay):
    lr32, b1, b2, wd = _f32(lr), _f32(beta1), _f32(beta2), _f32(weight_decay)
    per_layer = D * D + 3 * D
    n = L * per_layer
    decay = 1.0 - lr32 * wd
    step_size = lr32 / (1.0 - b1 ** step)
    inv_bc2_sqrt = 1.0 / math.sqrt(1.0 - b2 ** step)
    _adamw_flat[(triton.cdiv(n, BLOCK),)](
        param, grad, exp_avg, exp_avg_sq, n, per_layer, D * D, beta1, beta2, 1.0 - b1, 1.0 - b2,
        eps, decay, step_size, inv_bc2_sqrt,
        BLOCK=BLOCK, WRAP_ONCE=per_layer >= BLOCK, num_warps=8)
