import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Log of a shifted softplus: y = log(softplus(x, beta) + eps)."""

    def __init__(self, beta: float, eps: float):
        super().__init__()
        self.beta = beta
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.log(F.softplus(x, beta=self.beta) + self.eps)


batch_size = 4096
dim = 8192
beta = 1.0
eps = 1e-3


def get_inputs():
    return [torch.randn(batch_size, dim) * 2]


def get_init_inputs():
    return [beta, eps]
