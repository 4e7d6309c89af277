import torch
import torch.nn as nn


class Model(nn.Module):
    """Linear layer with bias, BatchNorm1d in inference mode, then tanh."""

    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.bn = nn.BatchNorm1d(out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(self.bn(self.linear(x)))


batch_size = 512
in_features = 256
out_features = 384


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
