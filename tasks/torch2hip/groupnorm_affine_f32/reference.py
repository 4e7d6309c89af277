import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.GroupNorm with a per-channel affine on a [B, C, HW] activation, C = G * CPG."""

    def __init__(self, num_groups: int, num_channels: int, eps: float):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, num_channels, eps=eps, affine=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.gn(x)


B = 8
G = 32
CPG = 10
HW = 4096
eps = 1e-5


def get_inputs():
    return [torch.randn(B, G * CPG, HW)]


def get_init_inputs():
    return [G, G * CPG, eps]
