import torch
import torch.nn as nn


class Model(nn.Module):
    """Depthwise 3x3 convolution (one filter per channel, padding 1) with bias, then ReLU."""

    def __init__(self, channels: int):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size=3, padding=1, groups=channels, bias=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.conv(x))


batch_size = 32
channels = 64
height = 112
width = 112


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels]
