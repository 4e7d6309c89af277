import torch
import torch.nn as nn

batch_size = 16
dim = undefined_size * 2


class Model(nn.Module):
    def forward(self, x):
        return x


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
