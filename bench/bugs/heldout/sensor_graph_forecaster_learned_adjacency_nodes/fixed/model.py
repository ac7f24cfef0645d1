import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphLearner(nn.Module):
    """Adjacency from two sets of node embeddings, as in MTGNN-style forecasters."""

    def __init__(self, num_nodes, emb_dim=16, alpha=3.0):
        super().__init__()
        self.emb1 = nn.Embedding(num_nodes, emb_dim)
        self.emb2 = nn.Embedding(num_nodes, emb_dim)
        self.alpha = alpha
        self.register_buffer("idx", torch.arange(num_nodes))

    def forward(self):
        m1 = torch.tanh(self.alpha * self.emb1(self.idx))
        m2 = torch.tanh(self.alpha * self.emb2(self.idx))
        return F.softmax(F.relu(m1 @ m2.t() - m2 @ m1.t()), dim=1)


class MixProp(nn.Module):
    def __init__(self, channels, depth=2, beta=0.05):
        super().__init__()
        self.depth, self.beta = depth, beta
        self.mlp = nn.Conv2d((depth + 1) * channels, channels, kernel_size=1)

    def forward(self, x, adj):
        h, out = x, [x]
        for _ in range(self.depth):
            h = self.beta * x + (1 - self.beta) * torch.einsum("ncwl,vw->ncvl", h, adj)
            out.append(h)
        return self.mlp(torch.cat(out, dim=1))


class GraphForecaster(nn.Module):
    def __init__(self, num_nodes, window, channels=8):
        super().__init__()
        self.graph = GraphLearner(num_nodes)
        self.start = nn.Conv2d(1, channels, kernel_size=1)
        self.prop = MixProp(channels)
        self.end = nn.Conv2d(channels, 1, kernel_size=(1, window))

    def forward(self, x):
        # x: (batch, 1, nodes, window)
        h = self.start(x)
        h = self.prop(h, self.graph())
        return self.end(h).squeeze(-1).squeeze(1)
