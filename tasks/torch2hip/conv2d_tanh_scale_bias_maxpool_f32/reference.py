import torch
import torch.nn as nn


class Model(nn.Module):
    """3x3 convolution (no padding, bias), tanh, constant scale, per-channel bias, 4x4 max pooling."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, scaling_factor: float,
                 bias_shape: tuple, pool_kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.scaling_factor = scaling_factor
        self.bias = nn.Parameter(torch.randn(bias_shape))
        self.max_pool = nn.MaxPool2d(pool_kernel_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.tanh(self.conv(x)) * self.scaling_factor + self.bias
        return self.max_pool(x)


batch_size = 16
in_channels = 8
out_channels = 64
height = 256
width = 256
kernel_size = 3
scaling_factor = 2.0
pool_kernel_size = 4


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, scaling_factor, (out_channels, 1, 1), pool_kernel_size]
