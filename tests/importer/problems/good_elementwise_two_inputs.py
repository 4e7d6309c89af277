import torch
import torch.nn as nn


class Model(nn.Module):
    """Gated residual: y = relu(x) * sigmoid(g) + x, elementwise over two inputs."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
        return torch.relu(x) * torch.sigmoid(g) + x


batch_size = 1024
dim = 4096


def get_inputs():
    x = torch.randn(batch_size, dim)
    g = torch.randn(batch_size, dim)
    return [x, g]


def get_init_inputs():
    return []
