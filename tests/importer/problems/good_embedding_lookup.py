import torch
import torch.nn as nn


class Model(nn.Module):
    """Embedding lookup of int64 token ids, scaled."""

    def __init__(self, num_embeddings: int, embedding_dim: int):
        super().__init__()
        self.embed = nn.Embedding(num_embeddings, embedding_dim)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.embed(ids) * 2.0


batch_size = 16
seq_len = 256
num_embeddings = 5000
embedding_dim = 512


def get_inputs():
    return [torch.randint(0, num_embeddings, (batch_size, seq_len))]


def get_init_inputs():
    return [num_embeddings, embedding_dim]
