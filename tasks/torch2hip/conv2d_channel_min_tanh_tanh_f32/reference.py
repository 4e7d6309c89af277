import torch
import torch.nn as nn


class Model(nn.Module):
    """3x3 convolution (no padding, bias), minimum over the output channels, tanh applied twice."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.amin(self.conv(x), dim=1, keepdim=True)
        return torch.tanh(torch.tanh(x))


batch_size = 16
in_channels = 16
out_channels = 64
height = 256
width = 256
kernel_size = 3


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
