import torch
import torch.nn as nn


class Model(nn.Module):
    """Depthwise 1D convolution (kernel 7, padding 3, bias) followed by exact (erf) GELU."""

    def __init__(self, channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, kernel_size, padding=kernel_size // 2, groups=channels, bias=True)
        self.act = nn.GELU()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.act(self.conv(x))


batch_size = 16
channels = 384
length = 4096
kernel_size = 7


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [channels, kernel_size]
