import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """minGPT multi-head causal self-attention with its output projection: one linear layer
    makes q, k and v for all heads, att = softmax(mask(q k^T / sqrt(head size))), y = att v with
    the heads put back side by side, then the projection. Dropout probabilities are 0 (eval).
    Head size 64."""

    def __init__(self, n_embd: int, n_head: int, max_seqlen: int):
        super().__init__()
        assert n_embd % n_head == 0
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.attn_dropout = nn.Dropout(0.0)
        self.resid_dropout = nn.Dropout(0.0)
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
        att = F.softmax(att, dim=-1)
        att = self.attn_dropout(att)
        y = att @ v                                         # [B, n_head, T, hs]
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_dropout(self.c_proj(y))


batch_size = 8
seq_len = 1024
n_head = 8


def get_inputs():
    return [torch.rand(batch_size, seq_len, n_head * 64)]


def get_init_inputs():
    return [n_head * 64, n_head, seq_len]
