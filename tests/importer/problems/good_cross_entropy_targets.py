"""Cross entropy of class scores against class-index targets. The targets are drawn below
num_classes while the scores' width is a tuple computed from it at import: at probe sizes the
two differ, and a target at or over the scores' width is an error (a device-side assert on a GPU,
which leaves the process's GPU unusable)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, scores, labels):
        return nn.functional.cross_entropy(scores, labels)


batch_size = 64
num_classes = 10
scores_shape = (num_classes,)


def get_inputs():
    return [torch.randn(batch_size, *scores_shape), torch.randint(0, num_classes, (batch_size,))]


def get_init_inputs():
    return []
