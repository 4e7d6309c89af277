import math

import torch
import torch.nn as nn


class Model(nn.Module):
    """Multi-head causal self-attention with ReLU in place of softmax (minGPT layout): one
    linear layer makes q, k and v for all heads, att = relu(mask(q k^T / sqrt(head size))),
    y = att v with the heads put back side by side. Head size 64."""

    def __init__(self, n_embd: int, n_head: int, max_seqlen: int):
        super().__init__()
        assert n_embd % n_head == 0
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        # The causal mask is a constant, not state: kept out of the state_dict.
        mask = torch.tril(torch.ones(max_seqlen, max_seqlen)).view(1, 1, max_seqlen, max_seqlen)
        self.register_buffer("bias", mask, persistent=False)
        self.n_head = n_head
        self.n_embd = n_embd

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, C = x.size()
        hs = C // self.n_head
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        q = q.view(B, T, self.n_head, hs).transpose(1, 2)  # [B, n_head, T, hs]
        k = k.view(B, T, self.n_head, hs).transpose(1, 2)
        v = v.view(B, T, self.n_head, hs).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hs))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = torch.relu(att)
        y = att @ v                                         # [B, n_head, T, hs]
        return y.transpose(1, 2).contiguous().view(B, T, C)


batch_size = 8
seq_len = 1024
n_head = 12


def get_inputs():
    return [torch.rand(batch_size, seq_len, n_head * 64)]


def get_init_inputs():
    return [n_head * 64, n_head, seq_len]
