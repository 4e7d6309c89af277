import torch
import torch.nn as nn


class Model(nn.Module):
    """Concatenates two feature sets and projects them: a size that is a sum of two variables."""

    def __init__(self, a_features: int, b_features: int, out_features: int):
        super().__init__()
        self.proj = nn.Linear(a_features + b_features, out_features)

    def forward(self, left, right):
        ab = torch.cat([left, right], dim=1)
        return self.proj(ab), ab


batch_size = 8
a_features = 12
b_features = 20
out_features = 6


def get_inputs():
    return [torch.randn(batch_size, a_features), torch.randn(batch_size, b_features)]


def get_init_inputs():
    return [a_features, b_features, out_features]
