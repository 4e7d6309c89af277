import torch
import torch.nn as nn


class Model(nn.Module):
    """Exclusive cumulative sum along dim: a zero, then the running sums of all but the last value."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        running = torch.cumsum(x.narrow(self.dim, 0, x.size(self.dim) - 1), dim=self.dim)
        first = torch.zeros_like(x.select(self.dim, 0).unsqueeze(self.dim))
        return torch.cat((first, running), dim=self.dim)


batch_size = 2048
length = 32768
dim = 1


def get_inputs():
    return [torch.rand(batch_size, length)]


def get_init_inputs():
    return [dim]
