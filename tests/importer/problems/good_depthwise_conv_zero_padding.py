import torch
import torch.nn as nn


class Model(nn.Module):
    """Depthwise 2D convolution (one filter per channel) with stride and padding arguments."""

    def __init__(self, channels: int, kernel_size: int, stride: int = 1, padding: int = 0):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, stride=stride, padding=padding,
                              groups=channels, bias=False)

    def forward(self, x):
        return self.conv(x)


batch_size = 4
channels = 6
kernel_size = 3
height = 40
width = 24
stride = 1
padding = 0


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels, kernel_size, stride, padding]
