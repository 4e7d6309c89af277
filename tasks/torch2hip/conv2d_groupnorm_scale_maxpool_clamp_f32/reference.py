import torch
import torch.nn as nn


class Model(nn.Module):
    """3x3 convolution (no padding, bias), GroupNorm (affine), per-channel scale, 4x4 max pooling, clamp."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, num_groups: int, scale_shape: tuple,
                 maxpool_kernel_size: int, clamp_min: float, clamp_max: float):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.group_norm = nn.GroupNorm(num_groups, out_channels)
        self.scale = nn.Parameter(torch.ones(scale_shape))
        self.maxpool = nn.MaxPool2d(kernel_size=maxpool_kernel_size)
        self.clamp_min = clamp_min
        self.clamp_max = clamp_max

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.group_norm(self.conv(x)) * self.scale
        return torch.clamp(self.maxpool(x), self.clamp_min, self.clamp_max)


batch_size = 64
in_channels = 8
out_channels = 64
num_groups = 16
height = 128
width = 128
kernel_size = 3
maxpool_kernel_size = 4
clamp_min = 0.0
clamp_max = 1.0


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, num_groups, (out_channels, 1, 1), maxpool_kernel_size,
            clamp_min, clamp_max]
