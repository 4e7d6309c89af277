import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Per-row KL divergence between two softmax distributions:
    loss[i] = sum_j softmax(q)[i, j] * (log softmax(q)[i, j] - log_softmax(p)[i, j])."""

    def __init__(self):
        super().__init__()

    def forward(self, p: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
        return F.kl_div(F.log_softmax(p, dim=1), F.softmax(q, dim=1), reduction="none").sum(dim=1)


batch_size = 8192
dim = 4096


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
