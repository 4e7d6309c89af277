"""2x bilinear upsampling (align_corners = false) of fp32 NCHW, tiled over the output.

A program owns a BR x BC tile of one output plane. At scale 2 the taps and weights depend only
on the output row (or column): row 2r takes input rows r - 1 and r with weights 1/4 and 3/4,
row 2r + 1 takes r and r + 1 with 3/4 and 1/4, neighbours clamped to the plane (row 0 reads
row 0 alone), which is PyTorch's rule. They are computed once per row and per column as
vectors, with no division or float-to-int conversion per element, so the per-output work is
four (L1-served) loads, six multiply-adds and one store, and the kernel runs at the speed of
its writes. Rows are declared 16-byte aligned when W is even so that the stores of y, 80 % of
the traffic, are 16-byte vectors."""
import triton
import triton.language as tl

TILE = 2048


@triton.jit
def upsample_kernel(x_ptr, y_ptr, H, W, tiles_h, tiles_w,
                    BR: tl.constexpr, BC: tl.constexpr, ALIGN: tl.constexpr):
    pid = tl.program_id(0)
    tw = pid % tiles_w
    t = pid // tiles_w
    th = t % tiles_h
    plane = (t // tiles_h).to(tl.int64)
    oh = th * BR + tl.arange(0, BR)
    ow = tw * BC + tl.arange(0, BC)

    # Taps (i0, i1) and the weight l of i1: max(o - 1, 0) // 2 is floor((o + 0.5) / 2 - 0.5)
    # clamped at 0; l is 1/4 for odd o, 3/4 for even o > 0, 0 for o = 0.
    h0 = tl.maximum(oh - 1, 0) // 2
    h1 = tl.minimum(h0 + 1, H - 1)
    lh = tl.where(oh % 2 == 1, 0.25, tl.where(oh == 0, 0.0, 0.75))
    w0 = tl.maximum(ow - 1, 0) // 2
    w1 = tl.minimum(w0 + 1, W - 1)
    lw = tl.where(ow % 2 == 1, 0.25, tl.where(ow == 0, 0.0, 0.75))

    mask = (oh < 2 * H)[:, None] & (ow < 2 * W)[None, :]
    x_plane = x_ptr + plane * H * W
    row0 = x_plane + (h0 * W)[:, None]
    row1 = x_plane + (h1 * W)[:, None]
    v00 = tl.load(row0 + w0[None, :], mask=mask, other=0.0)
    v01 = tl.load(row0 + w1[None, :], mask=mask, other=0.0)
    v10 = tl.load(row1 + w0[None, :], mask=mask, other=0.0)
    v11 = tl.load(row1 + w1[None, :], mask=mask, other=0.0)
    lw1 = lw[None, :]
    lw0 = 1.0 - lw1
    lh1 = lh[:, None]
    lh0 = 1.0 - lh1
    y = lh0 * (lw0 * v00 + lw1 * v01) + lh1 * (lw0 * v10 + lw1 * v11)

    y_row = tl.multiple_of(oh * (2 * W), ALIGN)
    y_ptrs = y_ptr + plane * 4 * H * W + y_row[:, None] + ow[None, :]
    tl.store(y_ptrs, y, mask=mask)


def launch(x, y, B, C, H, W):
    bc = min(128, max(16, triton.next_power_of_2(2 * W)))
    br = min(TILE // bc, triton.next_power_of_2(2 * H))
    tiles_h = triton.cdiv(2 * H, br)
    tiles_w = triton.cdiv(2 * W, bc)
    grid = (B * C * tiles_h * tiles_w,)
    upsample_kernel[grid](x, y, H, W, tiles_h, tiles_w, BR=br, BC=bc,
                          ALIGN=4 if W % 2 == 0 else 1, num_warps=4)
