import torch
import torch.nn as nn


class Model(nn.Module):
    """Weights each row's entries by a vector as long as the batch: the broadcast along the last
    dim needs the row length equal to batch_size."""

    def forward(self, x, weights):
        return (x * weights).sum(dim=1)


batch_size = 48
input_shape = (48,)


def get_inputs():
    return [torch.randn(batch_size, *input_shape), torch.rand(batch_size)]


def get_init_inputs():
    return []
