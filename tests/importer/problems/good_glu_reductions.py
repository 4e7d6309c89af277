import torch
import torch.nn as nn


class Model(nn.Module):
    """GLU over a doubled feature dim, with its row sums and its overall mean."""

    def __init__(self, reduce_dim: int):
        super().__init__()
        self.reduce_dim = reduce_dim

    def forward(self, x: torch.Tensor):
        a, b = x.chunk(2, dim=-1)
        y = a * torch.sigmoid(b)
        return y, y.sum(dim=self.reduce_dim), y.mean()


batch_size = 128
dim = 1024
reduce_dim = 1


def get_inputs():
    return [torch.randn(batch_size, dim * 2)]


def get_init_inputs():
    return [reduce_dim]
