import torch
import torch.nn as nn


class Model(nn.Module):
    """Drops the first column: an input one wider than the output (dim + 1)."""

    def forward(self, x):
        return x[:, 1:] * 2.0


batch_size = 16
dim = 64


def get_inputs():
    return [torch.randn(batch_size, dim + 1)]


def get_init_inputs():
    return []
