"""Paged-KV-cache decode attention (FlashDecoding), from conch-triton-kernels 1.3 (Apache-2.0):
`conch.ops.attention.paged_attention.paged_attention(query, key_cache, value_cache,
block_table, seq_lens, output)`.

That wrapper checks shapes, picks the number of KV splits from the longest possible context
(`_determine_max_num_kv_splits(max_blocks_per_seq * cache_block_size)`), allocates two
scratchpads in the query's dtype (per-split partial outputs [B, splits, HQ, D] and
log-sum-exps [B, splits, HQ]) and calls `paged_attention_launcher`, which only launches the
package's two kernels: `_paged_attention_compute_splits_kernel` (grid B x splits x HKV, one
program per sequence, split and KV head, all query heads of the group together) and
`_paged_attention_reduce_splits_kernel` (grid B x HQ). Here the scratchpads are views of the
workspace (the kernels read only the splits they wrote, so the wrapper's zero fill is not
needed) and the launcher is called as the wrapper calls it: default scale D^-1/2, no softcap,
no fp8."""
import torch

from conch.kernels.attention.paged_attention import paged_attention_launcher
from conch.ops.attention.paged_attention import _determine_max_num_kv_splits


def _splits(BS, MAXBLK):
    return _determine_max_num_kv_splits(MAXBLK * BS)


def workspace_bytes(B, HQ, HKV, D, NB, BS, MAXBLK):
    splits = _splits(BS, MAXBLK)
    return 2 * B * splits * HQ * D + 2 * B * splits * HQ


def launch(query, key_cache, value_cache, block_table, seq_lens, out,
           B, HQ, HKV, D, NB, BS, MAXBLK, workspace):
    splits = _splits(BS, MAXBLK)
    n_out = B * splits * HQ * D
    scratch = workspace.view(query.dtype)
    output_scratchpad = scratch[:n_out].view(B, splits, HQ, D)
    lse_scratchpad = scratch[n_out:n_out + B * splits * HQ].view(B, splits, HQ)
    paged_attention_launcher(out, query, key_cache, value_cache, output_scratchpad,
                             lse_scratchpad, block_table, seq_lens)
