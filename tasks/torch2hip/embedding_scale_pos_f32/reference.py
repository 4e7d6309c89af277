import math

import torch
import torch.nn as nn


class Model(nn.Module):
    """Token embedding scaled by sqrt(embed_dim), plus a learned positional embedding:
    y[b, s, :] = embed.weight[ids[b, s], :] * sqrt(embed_dim) + pos[s, :]."""

    def __init__(self, vocab_size: int, seq_len: int, embed_dim: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, embed_dim)
        self.pos = nn.Parameter(torch.randn(seq_len, embed_dim))
        self.scale = math.sqrt(embed_dim)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.embed(ids) * self.scale + self.pos


batch_size = 32
seq_len = 1024
vocab_size = 32000
embed_dim = 1024


def get_inputs():
    return [torch.randint(0, vocab_size, (batch_size, seq_len))]


def get_init_inputs():
    return [vocab_size, seq_len, embed_dim]
