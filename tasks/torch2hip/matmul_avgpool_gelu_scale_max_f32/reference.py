import torch
import torch.nn as nn


class Model(nn.Module):
    """Linear layer, 1-D average pooling over windows of pool_kernel_size output features,
    exact GELU, scaling, then the maximum over the pooled features: one value per row."""

    def __init__(self, in_features: int, out_features: int, pool_kernel_size: int, scale_factor: float):
        super().__init__()
        self.matmul = nn.Linear(in_features, out_features)
        self.avg_pool = nn.AvgPool1d(kernel_size=pool_kernel_size)
        self.scale_factor = scale_factor

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.matmul(x)                             # [batch_size, out_features]
        h = self.avg_pool(h.unsqueeze(1)).squeeze(1)   # [batch_size, out_features // pool_kernel_size]
        h = torch.nn.functional.gelu(h)
        h = h * self.scale_factor
        return torch.max(h, dim=1).values              # [batch_size]


batch_size = 1024
in_features = 8192
out_features = 8192
pool_kernel_size = 16
scale_factor = 2.0


def get_inputs():
    return [torch.rand(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, pool_kernel_size, scale_factor]
