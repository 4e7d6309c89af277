import torch
import torch.nn as nn


class Model(nn.Module):
    """A linear layer whose outputs are centered over the batch: the per-feature bias cancels."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        h = self.linear(x)
        return h - h.mean(dim=0, keepdim=True)


batch_size = 32
in_features = 16
out_features = 8


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
