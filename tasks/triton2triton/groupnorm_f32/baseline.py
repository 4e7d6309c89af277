"""Group normalization over fp32 [B, C, HW] (C = G * CPG): one program per (batch, group),
three passes over the group's CPG * HW contiguous values in blocks of 256 (mean, variance
about the mean, normalize with the channel's gamma and beta)."""
import triton
import triton.language as tl

BLOCK = 256


@triton.jit
def groupnorm_kernel(x_ptr, gamma_ptr, beta_ptr, y_ptr, G, CPG, HW, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)  # b * G + g
    g = pid % G
    n = CPG * HW
    x_grp = x_ptr + pid * n
    y_grp = y_ptr + pid * n

    # Pass 1: mean.
    s = 0.0
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        s += tl.sum(tl.load(x_grp + offs, mask=offs < n, other=0.0), axis=0)
    mean = s / n

    # Pass 2: biased variance about the mean.
    v = 0.0
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_grp + offs, mask=mask, other=0.0)
        d = tl.where(mask, x - mean, 0.0)
        v += tl.sum(d * d, axis=0)
    rstd = 1.0 / tl.sqrt(v / n + eps)

    # Pass 3: normalize, then the per-channel scale and shift.
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        c = g * CPG + offs // HW
        x = tl.load(x_grp + offs, mask=mask, other=0.0)
        gm = tl.load(gamma_ptr + c, mask=mask, other=0.0)
        bt = tl.load(beta_ptr + c, mask=mask, other=0.0)
        tl.store(y_grp + offs, (x - mean) * rstd * gm + bt, mask=mask)


def launch(x, gamma, beta, y, B, G, CPG, HW, eps):
    groupnorm_kernel[(B * G,)](x, gamma, beta, y, G, CPG, HW, eps, BLOCK=BLOCK)
