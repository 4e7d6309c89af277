"""Inclusive prefix sum along the rows of an fp32 matrix, fp32 accumulation.

Long rows (N > 16384) with at least 96 of them, the top-p sampling case: one program per row
streams the row once in tiles of 8192 values (16 warps), carrying the running sum from tile
to tile, and issues the next tile's load before scanning and storing the current one, so two
tiles (64 KB) are in flight per program. x is read once and y written once (8 bytes per
value); the package reads x twice (a per-program tile-sum kernel, a scan of those sums, then a
second scan kernel that reads x again), 12 bytes per value over three launches.
Short rows (N <= 16384): the whole row, or several short rows, in one register tile.
Few long rows (M < 96, too few programs to stream): tile sums, a scan of them, and a second
pass, as the package does, over 8192-value tiles."""
import triton
import triton.language as tl

SHORT = 16384
TILE = 8192
STREAM_MIN_ROWS = 96


@triton.jit
def scan_short_rows(x_ptr, y_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows < M)[:, None] & (cols < N)[None, :]
    offs = rows.to(tl.int64)[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.cumsum(x, axis=1), mask=mask)


@triton.jit
def scan_long_row(x_ptr, y_ptr, N, TILE: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * N
    cols = tl.arange(0, TILE)
    x = tl.load(x_ptr + base + cols, mask=cols < N, other=0.0)
    prefix = 0.0
    for start in range(0, N, TILE):
        nxt = start + TILE + cols
        x_next = tl.load(x_ptr + base + nxt, mask=nxt < N, other=0.0)
        y = prefix + tl.cumsum(x, axis=0)
        prefix += tl.sum(x, axis=0)
        tl.store(y_ptr + base + start + cols, y, mask=start + cols < N)
        x = x_next


@triton.jit
def tile_sums(x_ptr, sums_ptr, N, n_tiles, TILE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    t = tl.program_id(1)
    cols = t * TILE + tl.arange(0, TILE)
    x = tl.load(x_ptr + row * N + cols, mask=cols < N, other=0.0)
    tl.store(sums_ptr + row * n_tiles + t, tl.sum(x, axis=0))


@triton.jit
def scan_tile_sums(sums_ptr, n_tiles, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    s = tl.load(sums_ptr + row * n_tiles + offs, mask=offs < n_tiles, other=0.0)
    # Exclusive prefix of the tile sums, in place.
    tl.store(sums_ptr + row * n_tiles + offs, tl.cumsum(s, axis=0) - s, mask=offs < n_tiles)


@triton.jit
def scan_tiles(x_ptr, y_ptr, sums_ptr, N, n_tiles, TILE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    t = tl.program_id(1)
    cols = t * TILE + tl.arange(0, TILE)
    mask = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0)
    prefix = tl.load(sums_ptr + row * n_tiles + t)
    tl.store(y_ptr + row * N + cols, prefix + tl.cumsum(x, axis=0), mask=mask)


def workspace_bytes(M, N):
    if N <= SHORT or M >= STREAM_MIN_ROWS:
        return 16
    return 4 * M * triton.cdiv(N, TILE)


def launch(x, y, M, N, workspace):
    if N <= SHORT:
        block_n = triton.next_power_of_2(N)
        block_m = max(1, min(4096 // block_n, triton.next_power_of_2(M)))
        num_warps = max(1, min(16, block_m * block_n // 512))
        scan_short_rows[(triton.cdiv(M, block_m),)](x, y, M, N, BLOCK_M=block_m, BLOCK_N=block_n,
                                                    num_warps=num_warps)
    elif M >= STREAM_MIN_ROWS:
        scan_long_row[(M,)](x, y, N, TILE=TILE, num_warps=16)
    else:
        n_tiles = triton.cdiv(N, TILE)
        sums = workspace.view(x.dtype)[: M * n_tiles]
        tile_sums[(M, n_tiles)](x, sums, N, n_tiles, TILE=TILE, num_warps=16)
        scan_tile_sums[(M,)](sums, n_tiles, BLOCK=triton.next_power_of_2(n_tiles), num_warps=8)
        scan_tiles[(M, n_tiles)](x, y, sums, N, n_tiles, TILE=TILE, num_warps=16)
