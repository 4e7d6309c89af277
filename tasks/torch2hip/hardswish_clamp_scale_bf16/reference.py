import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Hardswish, clamped to [min_val, max_val], then scaled."""

    def __init__(self, min_val: float, max_val: float, scale: float):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.clamp(F.hardswish(x), self.min_val, self.max_val) * self.scale


batch_size = 8192
dim = 4096
min_val = -0.25
max_val = 2.5
scale = 1.5


def get_inputs():
    return [torch.randn(batch_size, dim) * 3]


def get_init_inputs():
    return [min_val, max_val, scale]
