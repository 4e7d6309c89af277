"""bitsandbytes NF4 blockwise dequantization (QLoRA weights): out[2i] = NF4[Q[i] >> 4] * absmax[2i // 64],
out[2i + 1] = NF4[Q[i] & 15] * absmax[2i // 64] (bf16 out of M*N elements, M*N/2 packed bytes,
fp32 absmax per 64 outputs).

The package kernel runs one program per 64-element block and walks it one byte at a time in a
scalar loop (a dependent load, a chain of 15 compares and two 2-byte stores per byte, repeated
by every thread of the program), so it is bound by latency and instruction issue, nowhere near
the memory system. Here each program handles 4096 bytes (8192 outputs) as vectors:
- 16-byte loads of the packed bytes; both nibbles decoded at once with a 4-level binary tree
  of selects on the code's bits (15 selects, no memory lookups), times the block's absmax
  (one 4-byte load per 32 bytes, served from L1).
- The high and low nibbles' results are interleaved in registers (join + reshape) so the bf16
  output goes out in contiguous 16-byte stores.
The kernel then streams 2.5 bytes per output element once, as a memory-bound kernel should."""
import triton
import triton.language as tl

BYTES_PER_PROGRAM = 4096
BLOCKSIZE = 64  # outputs per absmax


@triton.jit
def _nf4(c):
    # NF4 code points (QLoRA's 4-bit NormalFloat), selected by the code's bits, high bit first.
    b0 = (c & 1) != 0
    b1 = (c & 2) != 0
    b2 = (c & 4) != 0
    lo = tl.where(b2,
                  tl.where(b1, tl.where(b0, 0.0, -0.09105003625154495),
                           tl.where(b0, -0.18477343022823334, -0.28444138169288635)),
                  tl.where(b1, tl.where(b0, -0.39491748809814453, -0.5250730514526367),
                           tl.where(b0, -0.6961928009986877, -1.0)))
    hi = tl.where(b2,
                  tl.where(b1, tl.where(b0, 1.0, 0.7229568362236023),
                           tl.where(b0, 0.5626170039176941, 0.44070982933044434)),
                  tl.where(b1, tl.where(b0, 0.33791524171829224, 0.24611230194568634),
                           tl.where(b0, 0.16093020141124725, 0.07958029955625534)))
    return tl.where((c & 8) != 0, hi, lo)


@triton.jit
def nf4_dequant_kernel(q_ptr, absmax_ptr, out_ptr, n_bytes, BLOCK: tl.constexpr,
                       BYTES_PER_SCALE: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_bytes
    q = tl.load(q_ptr + offs, mask=mask, other=0).to(tl.int32)
    scale = tl.load(absmax_ptr + offs // BYTES_PER_SCALE, mask=mask, other=0.0)
    first = _nf4(q >> 4) * scale
    second = _nf4(q & 15) * scale
    pair = tl.reshape(tl.join(first, second), (2 * BLOCK,))
    out_offs = tl.program_id(0).to(tl.int64) * (2 * BLOCK) + tl.arange(0, 2 * BLOCK)
    tl.store(out_ptr + out_offs, pair.to(tl.bfloat16), mask=out_offs < 2 * n_bytes)


def launch(Q, absmax, out, M, N):
    n_bytes = M * N // 2
    grid = (triton.cdiv(n_bytes, BYTES_PER_PROGRAM),)
    nf4_dequant_kernel[grid](Q, absmax, out, n_bytes, BLOCK=BYTES_PER_PROGRAM,
                             BYTES_PER_SCALE=BLOCKSIZE // 2, num_warps=8)
