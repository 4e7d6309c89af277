import torch
import torch.nn as nn


class Model(nn.Module):
    """3x3 convolution (no padding, bias), GroupNorm (affine), tanh, HardSwish, residual add of the
    convolution, logsumexp over the channels."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, groups: int, eps: float = 1e-5):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.group_norm = nn.GroupNorm(groups, out_channels, eps=eps)
        self.tanh = nn.Tanh()
        self.hard_swish = nn.Hardswish()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x_conv = self.conv(x)
        x_act = self.hard_swish(self.tanh(self.group_norm(x_conv)))
        return torch.logsumexp(x_conv + x_act, dim=1, keepdim=True)


batch_size = 64
in_channels = 8
out_channels = 64
groups = 16
height = 128
width = 128
kernel_size = 3


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, groups]
