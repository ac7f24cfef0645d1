import torch
import torch.nn as nn


class nconv(nn.Module):
    def forward(self, x, A):
        return torch.einsum("ncvl,vw->ncwl", x, A).contiguous()


class GraphConv(nn.Module):
    def __init__(self, c_in, c_out, order=2, dropout=0.1):
        super().__init__()
        self.nconv = nconv()
        self.order = order
        self.mlp = nn.Conv2d(c_in * (order + 1), c_out, kernel_size=1)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, adj):
        out = [x]
        h = x
        for _ in range(self.order):
            h = self.nconv(h, adj)
            out.append(h)
        return self.dropout(self.mlp(torch.cat(out, dim=1)))


class TemporalGCN(nn.Module):
    """Input (batch, features, time, nodes), as the sliding-window loader yields it."""

    def __init__(self, num_nodes, in_dim=2, hidden=16, horizon=3):
        super().__init__()
        self.node_emb = nn.Parameter(torch.randn(num_nodes, 8))
        self.start = nn.Conv2d(in_dim, hidden, kernel_size=1)
        self.gc = GraphConv(hidden, hidden)
        self.temporal = nn.Conv2d(hidden, hidden, kernel_size=(3, 1), padding=(1, 0))
        self.end = nn.Conv2d(hidden, horizon, kernel_size=1)

    def adaptive_adj(self):
        return torch.softmax(torch.relu(self.node_emb @ self.node_emb.t()), dim=1)

    def forward(self, x):
        h = self.start(x)
        h = torch.relu(self.temporal(h))
        h = self.gc(h, self.adaptive_adj())
        return self.end(h).mean(dim=2)
