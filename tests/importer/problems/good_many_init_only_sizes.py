import torch
import torch.nn as nn


class Model(nn.Module):
    """Strided, dilated convolution, then GroupNorm: six constructor-only ints (the output size
    depends on four of them at once, and the group count must divide the channels), so only
    keeping all six at their file values works."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, num_groups):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                              dilation=dilation, bias=False)
        self.norm = nn.GroupNorm(num_groups, out_channels)

    def forward(self, x):
        return self.norm(self.conv(x))


batch_size = 2
in_channels = 4
out_channels = 8
kernel_size = 3
stride = 2
padding = 3
dilation = 2
num_groups = 4
height = 20
width = 12


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding, dilation, num_groups]
