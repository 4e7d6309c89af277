import torch
import torch.nn as nn


class Model(nn.Module):
    """Linear layer, a sum over its output features, then max, mean and two logsumexps over
    the resulting dimension of size one."""

    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.linear(x)                                  # [batch_size, out_features]
        h = torch.sum(h, dim=1, keepdim=True)               # [batch_size, 1]
        h = torch.max(h, dim=1, keepdim=True).values
        h = torch.mean(h, dim=1, keepdim=True)
        h = torch.logsumexp(h, dim=1, keepdim=True)
        return torch.logsumexp(h, dim=1, keepdim=True)


batch_size = 1024
in_features = 8192
out_features = 8192


def get_inputs():
    return [torch.rand(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
