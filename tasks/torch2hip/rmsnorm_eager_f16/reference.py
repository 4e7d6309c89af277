import torch
import torch.nn as nn


class Model(nn.Module):
    """RMSNorm written out in eager ops: y = x * rsqrt(mean(x^2, last dim) + eps) * weight."""

    def __init__(self, hidden_size: int, eps: float):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size, dtype=torch.float16))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


batch_size = 16384
hidden_size = 4096
eps = 1e-5


def get_inputs():
    return [torch.randn(batch_size, hidden_size, dtype=torch.float16)]


def get_init_inputs():
    return [hidden_size, eps]
