import numpy as np
import torch
import torch.nn as nn


class HyperConv(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.layers = layers

    def forward(self, adjacency, embedding):
        item_embeddings = embedding
        final = [item_embeddings]
        for _ in range(self.layers):
            item_embeddings = torch.sparse.mm(adjacency, item_embeddings)
            final.append(item_embeddings)
        item_embeddings = np.sum(final, 0) / (self.layers + 1)
        return item_embeddings


class SessionRecommender(nn.Module):
    def __init__(self, adjacency, n_items, emb_size=16, layers=2):
        super().__init__()
        self.adjacency = adjacency
        self.embedding = nn.Embedding(n_items, emb_size)
        self.hyper_conv = HyperConv(layers)
        self.pos_weight = nn.Linear(emb_size, emb_size)

    def forward(self, session_items, mask):
        item_emb = self.hyper_conv(self.adjacency, self.embedding.weight)
        seq = item_emb[session_items] * mask.unsqueeze(-1)
        sess = torch.tanh(self.pos_weight(seq.sum(1) / mask.sum(1, keepdim=True)))
        return sess @ item_emb.t()
