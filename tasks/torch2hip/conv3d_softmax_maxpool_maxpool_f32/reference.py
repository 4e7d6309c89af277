import torch
import torch.nn as nn


class Model(nn.Module):
    """3x3x3 convolution (no padding, bias), softmax over the channels, two 2x2x2 max poolings."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, pool_kernel_size: int):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size)
        self.pool1 = nn.MaxPool3d(pool_kernel_size)
        self.pool2 = nn.MaxPool3d(pool_kernel_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.softmax(self.conv(x), dim=1)
        return self.pool2(self.pool1(x))


batch_size = 128
in_channels = 3
out_channels = 16
depth = 16
height = 32
width = 32
kernel_size = 3
pool_kernel_size = 2


def get_inputs():
    return [torch.randn(batch_size, in_channels, depth, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, pool_kernel_size]
