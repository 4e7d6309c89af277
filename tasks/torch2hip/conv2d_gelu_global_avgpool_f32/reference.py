import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """3x3 convolution (no padding, bias), exact GELU, global average pooling to one value per channel."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.gelu(self.conv(x))
        return F.adaptive_avg_pool2d(x, 1).flatten(1)


batch_size = 16
in_channels = 8
out_channels = 64
height = 256
width = 256
kernel_size = 3


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
