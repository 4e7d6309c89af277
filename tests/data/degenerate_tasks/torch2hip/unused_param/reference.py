import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, p):
        super().__init__()
        self.dropout = nn.Dropout(p)

    def forward(self, x):
        return self.dropout(x * 3.0)


batch_size = 16
dim = 64
p = 0.25


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [p]
