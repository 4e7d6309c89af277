import torch
import torch.nn as nn


class Model(nn.Module):
    """Picks num_picks entries of every row by index and returns their weighted sum:
    y[i] = sum_k x[i, idx[i, k]] * weight[k]."""

    def __init__(self, num_picks: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_picks))

    def forward(self, x: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
        return (torch.gather(x, 1, idx) * self.weight).sum(dim=1)


batch_size = 8192
dim = 4096
num_picks = 4096


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randint(0, dim, (batch_size, num_picks))]


def get_init_inputs():
    return [num_picks]
