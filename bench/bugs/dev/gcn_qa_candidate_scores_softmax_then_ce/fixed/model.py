import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphConv(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.self_loop = nn.Linear(dim, dim)
        self.neighbour = nn.Linear(dim, dim, bias=False)

    def forward(self, nodes, adj):
        deg = adj.sum(-1, keepdim=True).clamp_min(1.0)
        return F.relu(self.self_loop(nodes) + self.neighbour(adj @ nodes) / deg)


class CandidateScorer(nn.Module):
    """Scores every candidate answer node of a query's entity graph."""

    def __init__(self, in_dim=12, dim=16, hops=2):
        super().__init__()
        self.encode = nn.Linear(in_dim, dim)
        self.hops = nn.ModuleList(GraphConv(dim) for _ in range(hops))
        self.score = nn.Linear(dim, 1)

    def forward(self, node_feats, adj, candidate_mask):
        h = torch.tanh(self.encode(node_feats))
        for layer in self.hops:
            h = layer(h, adj)
        scores = self.score(h).squeeze(-1).masked_fill(~candidate_mask, -1e4)
        return scores
