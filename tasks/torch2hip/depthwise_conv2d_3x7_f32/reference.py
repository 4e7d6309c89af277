import torch
import torch.nn as nn


class Model(nn.Module):
    """Depthwise 2D convolution with a 3 x 7 kernel (one filter per channel), stride 1, no padding, no bias."""

    def __init__(self, channels: int, kernel_size_h: int, kernel_size_w: int):
        super().__init__()
        self.conv2d = nn.Conv2d(channels, channels, (kernel_size_h, kernel_size_w), groups=channels, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv2d(x)


batch_size = 16
channels = 128
height = 128
width = 256
kernel_size_h = 3
kernel_size_w = 7


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels, kernel_size_h, kernel_size_w]
