import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x, exponent):
        return torch.pow(x, exponent)


batch_size = 16
dim = 64


def get_inputs():
    return [torch.randn(batch_size, dim), 3]


def get_init_inputs():
    return []
