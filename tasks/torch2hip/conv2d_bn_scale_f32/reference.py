import torch
import torch.nn as nn


class Model(nn.Module):
    """3x3 convolution (no padding, bias), BatchNorm2d in inference mode, then a constant scale."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, scaling_factor: float):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bn = nn.BatchNorm2d(out_channels)
        # Inference only: BatchNorm's 0-d step counter is never read in eval mode.
        self.bn.num_batches_tracked = None
        self.scaling_factor = scaling_factor

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.bn(self.conv(x)) * self.scaling_factor


batch_size = 64
in_channels = 8
out_channels = 64
height = 128
width = 128
kernel_size = 3
scaling_factor = 2.0


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, scaling_factor]
