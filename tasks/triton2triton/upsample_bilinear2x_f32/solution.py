"""2x bilinear upsampling (align_corners = false) of fp32 NCHW, tiled over the input.

At scale 2 every input element (r, c) owns four outputs, rows 2r / 2r + 1 and columns
2c / 2c + 1, with fixed weights: row 2r blends input rows r - 1 and r as 1/4 : 3/4, row
2r + 1 blends r and r + 1 as 3/4 : 1/4, neighbours clamped to the plane (PyTorch's rule: row 0
is input row 0 alone, the last row the last input row alone); columns likewise. A program
loads a BR x BC input tile and its one-element halo as nine contiguous (vectorized,
cache-served) loads instead of four gathers per output, blends rows then columns, and
interleaves the even and odd columns with tl.join so each output row is one contiguous store.
No division or float-to-int conversion per element. Tiles are small (at most 8 rows, 512
input elements): measured on an H100, 1024-element or 32-row tiles ran up to 2x slower."""
import triton
import triton.language as tl

TILE = 512  # input elements per program: small tiles keep more programs resident


@triton.jit
def upsample_kernel(x_ptr, y_ptr, H, W, tiles_h, tiles_w, BR: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    tw = pid % tiles_w
    t = pid // tiles_w
    th = t % tiles_h
    plane = (t // tiles_h).to(tl.int64)
    r = th * BR + tl.arange(0, BR)
    c = tw * BC + tl.arange(0, BC)
    rm = tl.maximum(r - 1, 0)
    rp = tl.minimum(r + 1, H - 1)
    cm = tl.maximum(c - 1, 0)
    cp = tl.minimum(c + 1, W - 1)
    mask = (r < H)[:, None] & (c < W)[None, :]

    x_plane = x_ptr + plane * H * W
    top_rows = (x_plane + (rm * W)[:, None], x_plane + (r * W)[:, None])
    bot_rows = x_plane + (rp * W)[:, None]
    # Row blends at the three column taps: up = output row 2r, dn = output row 2r + 1.
    mid_m = tl.load(top_rows[1] + cm[None, :], mask=mask, other=0.0)
    mid_c = tl.load(top_rows[1] + c[None, :], mask=mask, other=0.0)
    mid_p = tl.load(top_rows[1] + cp[None, :], mask=mask, other=0.0)
    up_m = 0.25 * tl.load(top_rows[0] + cm[None, :], mask=mask, other=0.0) + 0.75 * mid_m
    up_c = 0.25 * tl.load(top_rows[0] + c[None, :], mask=mask, other=0.0) + 0.75 * mid_c
    up_p = 0.25 * tl.load(top_rows[0] + cp[None, :], mask=mask, other=0.0) + 0.75 * mid_p
    dn_m = 0.75 * mid_m + 0.25 * tl.load(bot_rows + cm[None, :], mask=mask, other=0.0)
    dn_c = 0.75 * mid_c + 0.25 * tl.load(bot_rows + c[None, :], mask=mask, other=0.0)
    dn_p = 0.75 * mid_p + 0.25 * tl.load(bot_rows + cp[None, :], mask=mask, other=0.0)

    # Column blends: even output column 2c from (c - 1, c), odd 2c + 1 from (c, c + 1).
    up = tl.reshape(tl.join(0.25 * up_m + 0.75 * up_c, 0.75 * up_c + 0.25 * up_p), (BR, 2 * BC))
    dn = tl.reshape(tl.join(0.25 * dn_m + 0.75 * dn_c, 0.75 * dn_c + 0.25 * dn_p), (BR, 2 * BC))

    oc = 2 * tw * BC + tl.arange(0, 2 * BC)
    out_mask = (r < H)[:, None] & (oc < 2 * W)[None, :]
    y_up = y_ptr + plane * 4 * H * W + (2 * r * (2 * W))[:, None] + oc[None, :]
    tl.store(y_up, up, mask=out_mask)
    tl.store(y_up + 2 * W, dn, mask=out_mask)


def launch(x, y, B, C, H, W):
    bc = min(128, max(16, triton.next_power_of_2(W)))
    br = max(1, min(8, TILE // bc, triton.next_power_of_2(H)))
    tiles_h = triton.cdiv(H, br)
    tiles_w = triton.cdiv(W, bc)
    grid = (B * C * tiles_h * tiles_w,)
    upsample_kernel[grid](x, y, H, W, tiles_h, tiles_w, BR=br, BC=bc, num_warps=4)
