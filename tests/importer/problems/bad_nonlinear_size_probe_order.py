import torch
import torch.nn as nn


class Model(nn.Module):
    """A packed triangle again, with the larger size first in the file: the refusal names the
    probe sizes, which show that the smallest prime went to the smallest file value."""

    def forward(self, x):
        return x * 2.0


rows = 4096
dim = 3


def get_inputs():
    return [torch.randn(rows, dim * (dim + 1) // 2)]


def get_init_inputs():
    return []
