import torch
import torch.nn as nn


class Model(nn.Module):
    """Softmax over the last dim of x / temperature plus an additive mask shared by the rows
    of each batch: y = softmax(x / T + mask, dim=-1), x [B, L, N], mask [B, 1, N]."""

    def __init__(self, temperature: float):
        super().__init__()
        self.temperature = temperature

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x / self.temperature + mask, dim=-1)


B = 8
L = 1024
N = 2048
temperature = 0.8


def get_inputs():
    return [torch.randn(B, L, N) * 1.5, torch.rand(B, 1, N) * 6 - 5]


def get_init_inputs():
    return [temperature]
