import torch
import torch.nn as nn


class Model(nn.Module):
    """3x3 convolution (no padding, bias), per-channel bias and scale, sigmoid, GroupNorm (affine)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, num_groups: int, bias_shape: tuple,
                 scale_shape: tuple):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))
        self.scale = nn.Parameter(torch.randn(scale_shape))
        self.group_norm = nn.GroupNorm(num_groups, out_channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.sigmoid((self.conv(x) + self.bias) * self.scale)
        return self.group_norm(x)


batch_size = 32
in_channels = 8
out_channels = 32
num_groups = 8
height = 256
width = 256
kernel_size = 3


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, num_groups, (out_channels, 1, 1), (out_channels, 1, 1)]
