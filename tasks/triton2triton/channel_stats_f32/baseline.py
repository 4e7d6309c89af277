"""Per-channel mean and biased variance of an fp32 [B, C, HW] tensor: one program per channel,
two passes over the channel's B slices (the mean, then the squared deviations about it), 256
values at a time."""
import triton
import triton.language as tl

BLOCK = 256


@triton.jit
def _channel_stats(x_ptr, mean_ptr, var_ptr, B, C, HW, n_f, BLOCK: tl.constexpr):
    c = tl.program_id(0)
    offs = tl.arange(0, BLOCK)

    # Pass 1: mean.
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for b in range(0, B):
        base = x_ptr + (b * C + c).to(tl.int64) * HW
        for i in range(0, HW, BLOCK):
            o = i + offs
            s += tl.load(base + o, mask=o < HW, other=0.0)
    mu = tl.sum(s, axis=0) / n_f

    # Pass 2: biased variance about the mean.
    q = tl.zeros([BLOCK], dtype=tl.float32)
    for b in range(0, B):
        base = x_ptr + (b * C + c).to(tl.int64) * HW
        for i in range(0, HW, BLOCK):
            o = i + offs
            m = o < HW
            d = tl.where(m, tl.load(base + o, mask=m, other=0.0) - mu, 0.0)
            q += d * d
    tl.store(mean_ptr + c, mu)
    tl.store(var_ptr + c, tl.sum(q, axis=0) / n_f)


def launch(x, mean, var, B, C, HW):
    _channel_stats[(C,)](x, mean, var, B, C, HW, float(B * HW), BLOCK=BLOCK)
