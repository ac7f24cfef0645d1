import torch
import torch.nn as nn

from ctr.modules import FeedForward


class DeepFM(nn.Module):
    def __init__(self, field_dims, embed_dim, mlp):
        super().__init__()
        self.offsets = torch.tensor([0] + list(field_dims[:-1])).cumsum(0)
        total = sum(field_dims)
        self.linear = nn.Embedding(total, 1)
        self.bias = nn.Parameter(torch.zeros(1))
        self.embedding = nn.Embedding(total, embed_dim)
        self.mlp = FeedForward(len(field_dims) * embed_dim, **mlp)
        self.out = nn.Linear(self.mlp.get_output_dim(), 1)

    def forward(self, fields):
        idx = fields + self.offsets
        emb = self.embedding(idx)
        square_of_sum = emb.sum(1).pow(2)
        sum_of_square = emb.pow(2).sum(1)
        fm = 0.5 * (square_of_sum - sum_of_square).sum(1, keepdim=True)
        deep = self.out(self.mlp(emb.flatten(1)))
        return (self.linear(idx).sum(1) + self.bias + fm + deep).squeeze(1)
