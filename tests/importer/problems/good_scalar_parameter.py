"""A linear layer whose output a learned 0-d scale multiplies."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scale = nn.Parameter(torch.tensor(1.5))

    def forward(self, x):
        return self.linear(x) * self.scale


batch_size = 16
in_features = 32
out_features = 24


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
