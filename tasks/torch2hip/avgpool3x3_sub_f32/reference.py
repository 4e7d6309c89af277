import torch
import torch.nn as nn


class Model(nn.Module):
    """PoolFormer token mixer: 3x3 average pooling (stride 1, padding 1, padded positions not
    counted) minus the input."""

    def __init__(self):
        super().__init__()
        self.pool = nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x) - x


batch_size = 32
channels = 64
height = 128
width = 128


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return []
