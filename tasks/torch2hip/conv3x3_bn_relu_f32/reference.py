import torch
import torch.nn as nn


class Model(nn.Module):
    """3x3 convolution (padding 1, bias) on few channels, BatchNorm2d in inference mode, ReLU."""

    def __init__(self, in_channels: int, out_channels: int, eps: float):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1, bias=True)
        self.bn = nn.BatchNorm2d(out_channels, eps=eps)
        # Inference only: BatchNorm's 0-d step counter is never read in eval mode.
        self.bn.num_batches_tracked = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.bn(self.conv(x)))


batch_size = 16
in_channels = 3
out_channels = 16
height = 224
width = 224
eps = 1e-5


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, eps]
