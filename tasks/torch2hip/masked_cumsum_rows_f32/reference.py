import torch
import torch.nn as nn


class Model(nn.Module):
    """Cumulative sum along dim of the values whose mask entry is set (x * mask)."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x * mask, dim=self.dim)


batch_size = 2048
length = 32768
dim = 1


def get_inputs():
    x = torch.rand(batch_size, length)
    mask = torch.randint(0, 2, x.shape).bool()
    return [x, mask]


def get_init_inputs():
    return [dim]
