import torch
import torch.nn as nn


class Model(nn.Module):
    """1D max pooling with stride, implicit -inf padding and dilation (values only)."""

    def __init__(self, kernel_size: int, stride: int, padding: int, dilation: int):
        super().__init__()
        self.maxpool = nn.MaxPool1d(kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.maxpool(x)


batch_size = 8
features = 192
sequence_length = 65536
kernel_size = 8
stride = 1
padding = 4
dilation = 3


def get_inputs():
    return [torch.randn(batch_size, features, sequence_length)]


def get_init_inputs():
    return [kernel_size, stride, padding, dilation]
