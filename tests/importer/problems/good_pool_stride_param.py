import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Min pooling with its window, stride, padding and dilation given by module-level ints: the
    output size is no product of per-variable factors while the stride varies, so it is kept fixed."""

    def __init__(self, window: int, step: int, pad: int, spread: int):
        super().__init__()
        self.window, self.step, self.pad, self.spread = window, step, pad, spread

    def forward(self, x):
        return -F.max_pool2d(-x, self.window, stride=self.step, padding=self.pad, dilation=self.spread)


batch_size = 4
channels = 8
height = 40
width = 48
window = 3
step = 2
pad = 1
spread = 1


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [window, step, pad, spread]
