"""K x K max pooling (stride S, padding K/2 ignored) of fp32 NCHW: one lane per output; the flat
output index is split into (plane, row, column) and each lane reads its whole window from
global memory, skipping positions outside the plane."""
import triton
import triton.language as tl

BLOCK = 256


@triton.jit
def maxpool_kernel(x_ptr, y_ptr, total, H, W, Ho, Wo, K, S, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    ow = offs % Wo
    t = offs // Wo
    oh = t % Ho
    plane = t // Ho
    P = K // 2
    h0 = oh * S - P
    w0 = ow * S - P
    x_plane = x_ptr + plane.to(tl.int64) * H * W
    m = tl.full((BLOCK,), float("-inf"), tl.float32)
    for kh in range(0, K):
        ih = h0 + kh
        row_ok = mask & (ih >= 0) & (ih < H)
        for kw in range(0, K):
            iw = w0 + kw
            ok = row_ok & (iw >= 0) & (iw < W)
            v = tl.load(x_plane + ih * W + iw, mask=ok, other=float("-inf"))
            m = tl.maximum(m, v)
    tl.store(y_ptr + offs, m, mask=mask)


def launch(x, y, B, C, H, W, K, S):
    Ho = (H - 1) // S + 1
    Wo = (W - 1) // S + 1
    total = B * C * Ho * Wo
    maxpool_kernel[(triton.cdiv(total, BLOCK),)](x, y, total, H, W, Ho, Wo, K, S, BLOCK=BLOCK)
