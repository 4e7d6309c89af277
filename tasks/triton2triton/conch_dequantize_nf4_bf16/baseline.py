"""bitsandbytes NF4 blockwise dequantization (QLoRA weights): out[2i] = NF4[Q[i] >> 4] * absmax[2i // 64],
out[2i + 1] = NF4[Q[i] & 15] * absmax[2i // 64], for a bf16 weight of M x N elements stored as
M*N/2 packed bytes with one fp32 absmax per block of 64 elements, with conch's Triton port of
the bitsandbytes kernel.

Package: conch-triton-kernels 1.3 (Apache-2.0). Callable:
conch.ops.quantization.bitsandbytes.functional.dequantize_4bit(Q, absmax=absmax, out=out,
blocksize=64, quant_type="nf4"). Given `out`, that wrapper only checks shapes and calls
dequantize_blockwise_launcher, which launches _dequantize_blockwise_kernel once, one program
per block of 64 outputs: it allocates nothing, so this launch calls the wrapper itself on the
harness's tensors (out flattened, as the wrapper expects)."""
from conch.ops.quantization.bitsandbytes.functional import dequantize_4bit

BLOCKSIZE = 64  # bitsandbytes' default for 4-bit weights


def launch(Q, absmax, out, M, N):
    dequantize_4bit(Q, absmax=absmax, out=out.view(M * N), blocksize=BLOCKSIZE, quant_type="nf4")
