import torch
import torch.nn as nn


class Model(nn.Module):
    """Per-row (per-token) dequantization of int8 values plus a per-column bias:
    y[i, j] = q[i, j] * scale[i] + bias[j]."""

    def __init__(self, num_cols: int):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(num_cols))

    def forward(self, q: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
        return q.to(scale.dtype) * scale.unsqueeze(1) + self.bias


num_rows = 16384
num_cols = 4096


def get_inputs():
    q = torch.randint(-128, 128, (num_rows, num_cols), dtype=torch.int8)
    scale = torch.rand(num_rows) * 0.018 + 0.002
    return [q, scale]


def get_init_inputs():
    return [num_cols]
