import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedGraphFilter(nn.Module):
    """One graph-filter layer: neighbour aggregation, a sigmoid gate per node, gated residual update."""

    def __init__(self, dim: int, threshold: float = 0.1):
        super().__init__()
        self.lin = nn.Linear(dim, dim)
        self.gate = nn.Linear(2 * dim, dim)
        self.threshold = threshold

    def forward(self, x: torch.Tensor, adj: torch.Tensor) -> torch.Tensor:
        neigh = adj @ self.lin(x)
        g = torch.sigmoid(self.gate(torch.cat([x, neigh], dim=-1)))
        g = g.masked_fill(g < self.threshold, 0.0)
        return x + g * neigh


class GraphClassifier(nn.Module):
    def __init__(self, in_dim: int = 8, dim: int = 16, num_classes: int = 3, layers: int = 2):
        super().__init__()
        self.inp = nn.Linear(in_dim, dim)
        self.layers = nn.ModuleList(GatedGraphFilter(dim) for _ in range(layers))
        self.out = nn.Linear(dim, num_classes)

    def forward(self, x, adj):
        h = F.relu(self.inp(x))
        for layer in self.layers:
            h = layer(h, adj)
        return self.out(h.mean(dim=1))


def random_graphs(n: int = 16, nodes: int = 10, in_dim: int = 8):
    x = torch.randn(n, nodes, in_dim)
    a = (torch.rand(n, nodes, nodes) > 0.7).float()
    a = ((a + a.transpose(1, 2)) > 0).float() + torch.eye(nodes)
    adj = a / a.sum(dim=-1, keepdim=True)
    return x, adj, torch.randint(0, 3, (n,))


def main():
    torch.manual_seed(0)
    x, adj, y = random_graphs()
    model = GraphClassifier()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(3):
        logits = model(x, adj)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch}: {loss.item():.3f}")


if __name__ == "__main__":
    main()
