"""Greedy decoding's argmax over the last dim of a bf16 matrix as flag-gems 5.0.2
(Apache-2.0) computes it: `flag_gems.ops.argmax.argmax(x, dim=-1)`.

For a row-major [M, N] input the op allocates the int64 result and launches
`argmax_kernel_inner` with grid (M, 1, 1): one program per row, its tile and warps from the
package's heuristics (TILE_N = next_power_of_2(N) up to 32768, else 4096 with 16 warps; rows
longer than a tile walk it tile by tile, keeping the first index of the largest value). This
module makes the same launch on the harness's idx."""
from flag_gems.ops.argmax import argmax_kernel_inner


def launch(x, idx, M, N):
    argmax_kernel_inner[lambda meta: (M, 1, 1)](x, idx, M, N)
