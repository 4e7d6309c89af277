"""vLLM's silu_and_mul over bf16, y = silu(x[:, :N]) * x[:, N:]: the package's own kernel.

The package's kernel reads x once and writes y once at 86.7-94.7 % of an H200's memory
bandwidth on every seen configuration. A tiled kernel that packs short rows many to a
program, with 16-byte vectors and fp32 math rounded once, measured slower on every one of
them (0.862-0.949, at 81-84 % of peak): at this limit nothing here beats one program per row
streaming the row in 1024-value blocks, so the task is at_limit (task.json) and this solution
calls the package's launcher on the harness's tensors, as the baseline does: the same launch,
so not slower."""
from conch.kernels.activation.silu_and_mul import silu_and_mul_launcher


def launch(x, y, M, N):
    silu_and_mul_launcher(y, x)
