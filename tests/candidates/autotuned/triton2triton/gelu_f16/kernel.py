"""A legitimate candidate that autotunes (triton.autotune benchmarks its configurations on the
first launch of each size, which the runners make during warm-up). Must pass every gate:
Triton's own allocations while it benchmarks are allowed, the candidate's are not."""
import triton
import triton.language as tl


@triton.autotune(
    configs=[triton.Config({"BLOCK": b}, num_warps=w) for b, w in ((1024, 4), (2048, 8), (4096, 8))],
    key=["N"],
)
@triton.jit
def gelu_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + offs, (0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))).to(tl.float16), mask=mask)


def launch(x, y, N):
    gelu_kernel[lambda meta: (triton.cdiv(N, meta["BLOCK"]),)](x, y, N)
