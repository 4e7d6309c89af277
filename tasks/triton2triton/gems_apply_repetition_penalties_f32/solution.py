"""Sampler repetition penalty, in place on fp32 logits.

A pure streaming kernel (10 bytes per vocabulary entry: the logit read and written, two mask
bytes read), so the only lever is how well the loads keep memory busy. The package's
programs cover 1024 entries with 4 warps: 8 logits and 8 bytes of each mask per lane, the
masks in 8-byte loads. Here a program covers 4096 entries of one sequence with 8 warps:
16 logits and 16 bytes of each mask per lane, every access a 16-byte vector, the penalty
loaded once per program, and a quarter as many programs to schedule."""
import triton
import triton.language as tl

BLOCK = 4096


@triton.jit
def repetition_penalty_tiles(logits_ptr, prompt_ptr, output_ptr, pen_ptr, V,
                             BLOCK: tl.constexpr):
    s = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < V
    offs = s.to(tl.int64) * V + cols
    seen = (tl.load(prompt_ptr + offs, mask=mask, other=0)
            | tl.load(output_ptr + offs, mask=mask, other=0)) != 0
    x = tl.load(logits_ptr + offs, mask=mask, other=0.0)
    p = tl.load(pen_ptr + s)
    y = tl.where(seen, tl.where(x > 0, x / p, x * p), x)
    tl.store(logits_ptr + offs, y, mask=mask)


def launch(logits, prompt_mask, output_mask, penalties, S, V):
    block = min(BLOCK, max(16, triton.next_power_of_2(V)))
    grid = (S, triton.cdiv(V, block))
    repetition_penalty_tiles[grid](logits, prompt_mask, output_mask, penalties, V, BLOCK=block,
                                   num_warps=max(1, min(8, block // 512)))
