"""Group normalization forward (y, per-group mean and rstd) over fp32 [B, C, HW], C = G * CPG.

liger's kernel runs one program per (batch, group) with 4 warps and a register block of up
to 65536 values: with B * G = 64-256 groups most of the 132 SMs idle, the block spills, and
every element's channel is found by an integer division. Here a group is cut into tiles of
CB channels x HB positions (at most 8192 values, 8 warps, 16-byte accesses when HW is a
multiple of 4) so that every SM is busy:
  - a group that fits one tile is normalized from registers by one program: x is read once,
    the variance is taken about the mean (two passes over registers);
  - larger groups take two launches over all tiles of all groups: `tile_stats` writes each
    tile's mean, centred sum of squares and count to the workspace; `tile_apply` merges its
    group's tile statistics exactly (Chan et al.), normalizes its tile with one gamma and beta
    per channel row, and the group's first tile writes mean and rstd. `tile_apply` walks the
    tiles in reverse, so the ones `tile_stats` read last are still in L2.
The statistics are centred (no E[x^2] - E[x]^2 cancellation), which the tolerance allows
either way."""
import torch
import triton
import triton.language as tl

TILE = 8192
NUM_WARPS = 8


@triton.jit
def _tile_offsets(grp, t, CPG, HW, NH, CB: tl.constexpr, HB: tl.constexpr):
    c0 = (t // NH) * CB
    h0 = (t % NH) * HB
    ch = c0 + tl.arange(0, CB)
    hw = h0 + tl.arange(0, HB)
    cmask = ch < CPG
    mask = cmask[:, None] & (hw < HW)[None, :]
    offs = grp.to(tl.int64) * (CPG * HW) + ch[:, None] * HW + hw[None, :]
    return ch, cmask, mask, offs


@triton.jit
def group_in_registers(x_ptr, gamma_ptr, beta_ptr, y_ptr, mean_ptr, rstd_ptr, G, CPG, HW, eps,
                       CB: tl.constexpr, HB: tl.constexpr):
    grp = tl.program_id(0)
    ch, cmask, mask, offs = _tile_offsets(grp, 0, CPG, HW, 1, CB, HB)
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    n = (CPG * HW).to(tl.float32)
    mean = tl.sum(tl.sum(x, axis=1), axis=0) / n
    d = tl.where(mask, x - mean, 0.0)
    rstd = tl.rsqrt(tl.sum(tl.sum(d * d, axis=1), axis=0) / n + eps)
    c = (grp % G) * CPG + ch
    scale = tl.load(gamma_ptr + c, mask=cmask, other=0.0) * rstd
    shift = tl.load(beta_ptr + c, mask=cmask, other=0.0)
    tl.store(y_ptr + offs, d * scale[:, None] + shift[:, None], mask=mask)
    tl.store(mean_ptr + grp, mean)
    tl.store(rstd_ptr + grp, rstd)


@triton.jit
def tile_stats(x_ptr, ws_ptr, CPG, HW, NH, P, CB: tl.constexpr, HB: tl.constexpr):
    pid = tl.program_id(0)
    grp = pid // P
    t = pid % P
    ch, cmask, mask, offs = _tile_offsets(grp, t, CPG, HW, NH, CB, HB)
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    c_in = tl.minimum(CPG - (t // NH) * CB, CB)
    h_in = tl.minimum(HW - (t % NH) * HB, HB)
    cnt = (c_in * h_in).to(tl.float32)
    mean = tl.sum(tl.sum(x, axis=1), axis=0) / cnt
    d = tl.where(mask, x - mean, 0.0)
    m2 = tl.sum(tl.sum(d * d, axis=1), axis=0)
    tl.store(ws_ptr + pid * 3, mean)
    tl.store(ws_ptr + pid * 3 + 1, m2)
    tl.store(ws_ptr + pid * 3 + 2, cnt)


@triton.jit
def tile_apply(x_ptr, gamma_ptr, beta_ptr, y_ptr, mean_ptr, rstd_ptr, ws_ptr, G, CPG, HW, NH, P,
               n_tiles, eps, CB: tl.constexpr, HB: tl.constexpr, BLOCK_P: tl.constexpr):
    pid = n_tiles - 1 - tl.program_id(0)
    grp = pid // P
    t = pid % P

    # Chan's merge of the group's P tile statistics.
    p = tl.arange(0, BLOCK_P)
    pmask = p < P
    part = ws_ptr + (grp * P + p) * 3
    t_mean = tl.load(part, mask=pmask, other=0.0)
    t_m2 = tl.load(part + 1, mask=pmask, other=0.0)
    t_cnt = tl.load(part + 2, mask=pmask, other=0.0)
    n = tl.sum(t_cnt, axis=0)
    mean = tl.sum(t_cnt * t_mean, axis=0) / n
    dm = t_mean - mean
    rstd = tl.rsqrt(tl.sum(t_m2 + t_cnt * dm * dm, axis=0) / n + eps)

    ch, cmask, mask, offs = _tile_offsets(grp, t, CPG, HW, NH, CB, HB)
    c = (grp % G) * CPG + ch
    scale = tl.load(gamma_ptr + c, mask=cmask, other=0.0) * rstd
    shift = tl.load(beta_ptr + c, mask=cmask, other=0.0)
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, (x - mean) * scale[:, None] + shift[:, None], mask=mask)
    if t == 0:
        tl.store(mean_ptr + grp, mean)
        tl.store(rstd_ptr + grp, rstd)


def _tiling(CPG, HW):
    hb = min(triton.next_power_of_2(HW), TILE)
    cb = max(1, min(TILE // hb, triton.next_power_of_2(CPG)))
    nh = triton.cdiv(HW, hb)
    return cb, hb, nh, triton.cdiv(CPG, cb) * nh


def workspace_bytes(B, G, CPG, HW, eps=None):
    return B * G * _tiling(CPG, HW)[3] * 3 * 4  # fp32 mean, M2 and count per tile


def launch(x, gamma, beta, y, mean, rstd, B, G, CPG, HW, eps, workspace):
    cb, hb, nh, p = _tiling(CPG, HW)
    num_warps = max(1, min(NUM_WARPS, cb * hb // 1024))
    if p == 1:
        group_in_registers[(B * G,)](x, gamma, beta, y, mean, rstd, G, CPG, HW, eps,
                                     CB=cb, HB=hb, num_warps=num_warps)
        return
    n_tiles = B * G * p
    ws = workspace.view(torch.float32)
    tile_stats[(n_tiles,)](x, ws, CPG, HW, nh, p, CB=cb, HB=hb, num_warps=num_warps)
    tile_apply[(n_tiles,)](x, gamma, beta, y, mean, rstd, ws, G, CPG, HW, nh, p, n_tiles, eps,
                           CB=cb, HB=hb, BLOCK_P=max(2, triton.next_power_of_2(p)), num_warps=num_warps)
