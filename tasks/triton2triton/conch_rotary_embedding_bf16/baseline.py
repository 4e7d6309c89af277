"""vLLM's NeoX-style rotary embedding, in place on bf16 query and key, as
conch-triton-kernels 1.3 (Apache-2.0) computes it.

The op `conch.ops.embedding.rotary_embedding.rotary_embedding(positions, query, key,
head_size, cos_sin_cache)` only calls `rotary_embedding_launcher`, which reads the sizes and
strides and launches `_rotary_embedding_kernel` once: one program per token, a loop over the
token's (head, pair) positions in blocks of next_power_of_2(head_size) for the query, then the
key, each step loading x, y, cos and sin one element per lane and storing the rotated pair
(fp32 math, since the cache is fp32). This module calls that launcher."""
from conch.kernels.embedding.rotary_embedding import rotary_embedding_launcher


def launch(positions, query, key, cos_sin_cache, T, P, Hq, Hk, R):
    rotary_embedding_launcher(positions, query, key, 2 * R, cos_sin_cache)
