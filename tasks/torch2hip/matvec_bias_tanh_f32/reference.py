import torch
import torch.nn as nn


class Model(nn.Module):
    """Scalar score per row: y = tanh(x @ w + b) with w a vector and b a scalar (shape [1])."""

    def __init__(self, in_features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_features) / in_features ** 0.5)
        self.bias = nn.Parameter(torch.zeros(1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(x @ self.weight + self.bias)


batch_size = 4194304
in_features = 16


def get_inputs():
    return [torch.rand(batch_size, in_features) * 2 - 1]


def get_init_inputs():
    return [in_features]
