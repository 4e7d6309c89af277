"""Calls PyTorch for the work (its GELU kernel and a copy) instead of writing a Triton kernel.
Passes the compile gate (the calls are ordinary torch functions); must fail correct_seen,
where launch runs and every PyTorch operator it reaches is refused, named."""
import torch


def launch(x, y, N):
    y.copy_(torch.nn.functional.gelu(x.float()).half())
