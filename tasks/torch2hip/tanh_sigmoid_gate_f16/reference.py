import torch
import torch.nn as nn


class Model(nn.Module):
    """Gated activation unit (WaveNet style): y = tanh(x) * sigmoid(g)."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
        return torch.tanh(x) * torch.sigmoid(g)


batch_size = 4096
dim = 8192


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
