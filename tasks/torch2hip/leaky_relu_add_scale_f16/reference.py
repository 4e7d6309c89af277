import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Leaky ReLU, residual add, then a scalar scale: y = (leaky_relu(x) + r) * scale."""

    def __init__(self, negative_slope: float, scale: float):
        super().__init__()
        self.negative_slope = negative_slope
        self.scale = scale

    def forward(self, x: torch.Tensor, r: torch.Tensor) -> torch.Tensor:
        return (F.leaky_relu(x, self.negative_slope) + r) * self.scale


batch_size = 4096
dim = 8192
negative_slope = 0.01
scale = 1.25


def get_inputs():
    return [torch.randn(batch_size, dim) * 2, torch.randn(batch_size, dim)]


def get_init_inputs():
    return [negative_slope, scale]
