import torch
import torch.nn as nn


class Model(nn.Module):
    """3x3x3 convolution (no padding, bias), minimum over the depth, softmax over the channels."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, dim: int):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size)
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.amin(self.conv(x), dim=self.dim)
        return torch.softmax(x, dim=1)


batch_size = 128
in_channels = 3
out_channels = 24
depth = 24
height = 32
width = 32
kernel_size = 3
dim = 2


def get_inputs():
    return [torch.randn(batch_size, in_channels, depth, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, dim]
