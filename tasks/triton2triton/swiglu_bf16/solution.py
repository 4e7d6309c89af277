"""SwiGLU over bf16, y = silu(gate) * up, fp32 math.

2D tiles of BLOCK_M rows x BLOCK_N columns (4096 outputs, 8 warps): rows and columns come
from the program ids and aranges, so there is no per-element division, and the gate, up and
output rows are contiguous runs that Triton loads and stores 16 bytes at a time whenever N
is a multiple of 16. Short rows are packed several to a tile."""
import triton
import triton.language as tl

TILE = 4096


@triton.jit
def swiglu_kernel(x_ptr, y_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows < M)[:, None] & (cols < N)[None, :]
    gate_offs = rows[:, None] * (2 * N) + cols[None, :]
    g = tl.load(x_ptr + gate_offs, mask=mask, other=0.0).to(tl.float32)
    u = tl.load(x_ptr + gate_offs + N, mask=mask, other=0.0).to(tl.float32)
    y = g / (1.0 + tl.exp(-g)) * u
    tl.store(y_ptr + rows[:, None] * N + cols[None, :], y.to(tl.bfloat16), mask=mask)


def launch(x, y, M, N):
    block_n = min(1024, triton.next_power_of_2(N))
    block_m = max(1, min(TILE // block_n, triton.next_power_of_2(M)))
    num_warps = max(1, min(8, block_m * block_n // 512))
    # Columns on grid axis 1 (at most cdiv(N, 1024) blocks), rows on axis 0 (no 65535 limit).
    grid = (triton.cdiv(M, block_m), triton.cdiv(N, block_n))
    swiglu_kernel[grid](x, y, M, N, BLOCK_M=block_m, BLOCK_N=block_n, num_warps=num_warps)
