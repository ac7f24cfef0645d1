import torch
import torch.nn as nn


class TabMlp(nn.Module):
    """Embeddings for the categorical columns, concatenated with the continuous ones, then an MLP."""

    def __init__(self, cat_cardinalities, n_cont, hidden=(32, 16), dropout=0.2):
        super().__init__()
        self.embeds = nn.ModuleList(nn.Embedding(card, 4) for card in cat_cardinalities)
        dims = [4 * len(cat_cardinalities) + n_cont, *hidden]
        blocks = []
        for d_in, d_out in zip(dims[:-1], dims[1:]):
            blocks += [nn.Linear(d_in, d_out), nn.ReLU(), nn.Dropout(dropout)]
        self.mlp = nn.Sequential(*blocks)
        self.out = nn.Linear(dims[-1], 1)

    def forward(self, x_cat, x_cont):
        emb = [e(x_cat[:, i]) for i, e in enumerate(self.embeds)]
        return self.out(self.mlp(torch.cat(emb + [x_cont], dim=1))).squeeze(-1)
