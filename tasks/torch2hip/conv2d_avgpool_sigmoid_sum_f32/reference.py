import torch
import torch.nn as nn


class Model(nn.Module):
    """3x3 convolution (no padding, bias), 4x4 average pooling, sigmoid, sum over channels and pixels."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, pool_kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.avg_pool = nn.AvgPool2d(pool_kernel_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.sigmoid(self.avg_pool(self.conv(x)))
        return x.sum(dim=[1, 2, 3])


batch_size = 8
in_channels = 8
out_channels = 64
height = 384
width = 384
kernel_size = 3
pool_kernel_size = 4


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, pool_kernel_size]
