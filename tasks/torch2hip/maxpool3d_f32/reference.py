import torch
import torch.nn as nn


class Model(nn.Module):
    """3D max pooling with cubic window, stride, implicit -inf padding and dilation (values only)."""

    def __init__(self, kernel_size: int, stride: int, padding: int, dilation: int):
        super().__init__()
        self.maxpool = nn.MaxPool3d(kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.maxpool(x)


batch_size = 1
channels = 32
depth = 128
height = 128
width = 128
kernel_size = 3
stride = 2
padding = 1
dilation = 3


def get_inputs():
    return [torch.randn(batch_size, channels, depth, height, width)]


def get_init_inputs():
    return [kernel_size, stride, padding, dilation]
