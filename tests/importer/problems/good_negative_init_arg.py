import torch
import torch.nn as nn


class Model(nn.Module):
    """Linear layer, then a clamp to [low, high]: the bounds are constructor ints, one negative."""

    def __init__(self, in_features: int, out_features: int, low: int, high: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.low = low
        self.high = high

    def forward(self, x):
        return torch.clamp(self.linear(x), min=self.low, max=self.high)


batch_size = 16
in_features = 32
out_features = 24
clamp_low = -1
clamp_high = 1


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, clamp_low, clamp_high]
