"""Label-aware GNN fraud detector on a multi-relation review graph (CARE-GNN style), full-batch on a toy graph."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class IntraAgg(nn.Module):
    """Mean of the selected neighbours' features under one relation."""

    def __init__(self, features, adj_lists):
        super().__init__()
        self.features = features
        self.adj_lists = adj_lists

    def forward(self, nodes):
        rows = []
        for n in nodes.tolist():
            neigh = self.adj_lists[n] or [n]
            rows.append(self.features[neigh].mean(0))
        return torch.stack(rows)


class InterAgg(nn.Module):
    """Combines the node's own features with the aggregate of every relation; returns (embed_dim, batch)."""

    def __init__(self, features, feat_dim, embed_dim, intra_aggs):
        super().__init__()
        self.features = features
        self.intra_aggs = nn.ModuleList(intra_aggs)
        self.weight = nn.Parameter(torch.empty(embed_dim, feat_dim * (len(intra_aggs) + 1)))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, nodes):
        self_feats = self.features[nodes]
        neigh_feats = [agg(nodes) for agg in self.intra_aggs]
        cat_feats = torch.cat([self_feats] + neigh_feats, dim=1)
        return F.relu(self.weight.mm(cat_feats.t()))


class OneLayerCARE(nn.Module):
    def __init__(self, num_classes, inter1, embed_dim):
        super().__init__()
        self.inter1 = inter1
        self.weight = nn.Parameter(torch.empty(embed_dim, num_classes))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, nodes):
        embeds1 = self.inter1(nodes)
        scores = torch.mm(embeds1, self.weight)
        return scores

    def to_prob(self, nodes):
        return torch.sigmoid(self.forward(nodes))


def random_relation(n_nodes, degree, rng):
    return {n: rng.sample(range(n_nodes), degree) for n in range(n_nodes)}


def main():
    random.seed(0)
    torch.manual_seed(0)
    rng = random.Random(0)
    n_nodes, feat_dim, embed_dim = 60, 16, 32
    features = torch.randn(n_nodes, feat_dim)
    labels = (torch.rand(n_nodes) < 0.2).long()
    relations = [random_relation(n_nodes, 4, rng) for _ in range(3)]
    intra = [IntraAgg(features, rel) for rel in relations]
    inter1 = InterAgg(features, feat_dim, embed_dim, intra)
    gnn = OneLayerCARE(2, inter1, embed_dim)
    optimizer = torch.optim.Adam(gnn.parameters(), lr=0.01, weight_decay=1e-3)
    train_idx = torch.arange(40)
    for epoch in range(3):
        batch = train_idx[torch.randperm(len(train_idx))[:16]]
        optimizer.zero_grad()
        loss = F.cross_entropy(gnn(batch), labels[batch])
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
