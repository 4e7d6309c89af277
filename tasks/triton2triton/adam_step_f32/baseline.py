"""One AdamW step over the parameters of an L-layer model, the way a per-parameter optimizer
loop does it: for every layer, one launch per parameter tensor (the D x D weight with weight
decay, then bias, norm weight and norm bias without), 256 elements per program. The bias
corrections are computed once on the host in double."""
import math
import struct

import triton
import triton.language as tl

BLOCK = 256


def _f32(v):
    """The fp32 value a float param stands for."""
    return struct.unpack("f", struct.pack("f", v))[0]


@triton.jit
def _adamw_tensor(p_ptr, g_ptr, m_ptr, v_ptr, n, lr, beta1, beta2, eps, wd, step_size, bc2_sqrt,
                  BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    g = tl.load(g_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    p = tl.load(p_ptr + offs, mask=mask, other=0.0) * (1.0 - lr * wd)
    m = beta1 * tl.load(m_ptr + offs, mask=mask, other=0.0) + (1.0 - beta1) * g
    v = beta2 * tl.load(v_ptr + offs, mask=mask, other=1.0) + (1.0 - beta2) * g * g
    tl.store(m_ptr + offs, m, mask=mask)
    tl.store(v_ptr + offs, v, mask=mask)
    denom = tl.div_rn(tl.sqrt_rn(v), bc2_sqrt) + eps
    tl.store(p_ptr + offs, p - tl.div_rn(step_size * m, denom), mask=mask)


def launch(param, grad, exp_avg, exp_avg_sq, L, D, step, lr, beta1, beta2, eps, weight_decay):
    b1, b2 = _f32(beta1), _f32(beta2)
    step_size = _f32(lr) / (1.0 - b1 ** step)
    bc2_sqrt = math.sqrt(1.0 - b2 ** step)
    sizes = (D * D, D, D, D)  # weight, bias, norm weight, norm bias
    off = 0
    for _ in range(L):
        for k, n in enumerate(sizes):
            wd = weight_decay if k == 0 else 0.0
            sl = slice(off, off + n)
            _adamw_tensor[(triton.cdiv(n, BLOCK),)](
                param[sl], grad[sl], exp_avg[sl], exp_avg_sq[sl], n, lr, beta1, beta2, eps, wd,
                step_size, bc2_sqrt, BLOCK=BLOCK)
            off += n
