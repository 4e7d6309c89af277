"""Inclusive prefix sum along the rows of an fp32 matrix as flag-gems 5.0.2 (Apache-2.0)
computes it: `flag_gems.ops.cumsum.cumsum(x, dim=-1)`, whose row scan is
`reduce_then_scan_row`.

Rows of at most 16384 values: one program per row scans the whole row from registers
(`reduce_then_scan_root_scan_kernel_row`, tile next_power_of_2(N), 8 warps above 2048).
Longer rows: three launches over tiles of 4096 values, with min(tiles, 4 x SMs) programs per
row: each program sums its run of tiles, one program per row scans those sums, and each
program scans its tiles again, starting from the sum before it (x is read twice). The
wrapper allocates the two (M, programs) scratch tensors with torch.empty; here they are views
of the workspace, sized for the most programs a row can get (one per tile). The launch
parameters come from the same expressions, with the package's own get_num_sms."""
import torch
import triton
from flag_gems.ops.cumsum import (
    get_num_sms,
    reduce_then_scan_block_scan_kernel_row,
    reduce_then_scan_block_sum_kernel_row,
    reduce_then_scan_root_scan_kernel_row,
)

PERSISTENT_MAX = 16384
TILE = 4096


def workspace_bytes(M, N):
    # At least a few bytes: the harness hands every launch a workspace tensor.
    return 16 if N <= PERSISTENT_MAX else 2 * 4 * M * triton.cdiv(N, TILE)


def launch(x, y, M, N, workspace):
    if N <= PERSISTENT_MAX:
        tile = triton.next_power_of_2(N)
        num_warps = 8 if tile > 2048 else 4
        reduce_then_scan_root_scan_kernel_row[(M, 1, 1)](x, y, N, tile, num_warps=num_warps)
        return
    tile = min(TILE, triton.next_power_of_2(N))
    num_warps = 8 if tile > 2048 else 4
    num_tiles = triton.cdiv(N, tile)
    num_ctas = min(num_tiles, get_num_sms(x.device.index) * 4)
    root_tile = triton.next_power_of_2(num_ctas)
    tiles_per_cta = triton.cdiv(num_tiles, num_ctas)
    scratch = workspace.view(torch.float32)
    block_sums = scratch[: M * num_ctas]
    block_inclusive_prefix = scratch[M * num_ctas : 2 * M * num_ctas]
    reduce_then_scan_block_sum_kernel_row[(M, num_ctas, 1, 1)](
        x, block_sums, N, tiles_per_cta, tile, num_warps=num_warps)
    reduce_then_scan_root_scan_kernel_row[(M, 1, 1)](
        block_sums, block_inclusive_prefix, num_ctas, root_tile, num_warps=num_warps)
    reduce_then_scan_block_scan_kernel_row[(M, num_ctas, 1)](
        x, block_inclusive_prefix, y, N, num_ctas, tiles_per_cta, tile, num_warps=num_warps)
