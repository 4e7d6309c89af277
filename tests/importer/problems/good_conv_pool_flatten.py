import torch
import torch.nn as nn


class Model(nn.Module):
    """3x3 convolution, 2x2 max pooling, flattened per sample: sizes (height - 2) / 2 and their product."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.pool = nn.MaxPool2d(2)

    def forward(self, x):
        return self.pool(self.conv(x)).flatten(1)


batch_size = 4
in_channels = 3
out_channels = 8
height, width = 32, 24
kernel_size = 3


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
