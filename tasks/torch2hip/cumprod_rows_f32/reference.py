import torch
import torch.nn as nn


class Model(nn.Module):
    """Cumulative product along dim."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumprod(x, dim=self.dim)


batch_size = 2048
length = 32768
dim = 1


def get_inputs():
    # Factors near 1 keep the products of long rows inside the fp32 range.
    return [0.99 + 0.02 * torch.rand(batch_size, length)]


def get_init_inputs():
    return [dim]
