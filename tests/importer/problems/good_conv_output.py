import torch
import torch.nn as nn


class Model(nn.Module):
    """1D convolution without padding: the output is shorter than the input (length - 2)."""

    def __init__(self, channels: int):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, kernel_size=3)

    def forward(self, x):
        return self.conv(x)


batch_size = 8
channels = 16
length = 512


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [channels]
