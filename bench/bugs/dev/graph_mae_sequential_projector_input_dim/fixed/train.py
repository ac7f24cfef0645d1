import torch

from model import GraphMAE


def random_graph(n_nodes: int = 40, n_feats: int = 12, p: float = 0.1, seed: int = 9):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n_nodes, n_feats, generator=g)
    a = (torch.rand(n_nodes, n_nodes, generator=g) < p).float()
    a = ((a + a.t()) > 0).float() + torch.eye(n_nodes)
    deg = a.sum(1, keepdim=True)
    return x, a / deg


def pretrain(model: GraphMAE, x: torch.Tensor, adj: torch.Tensor, epochs: int = 5) -> None:
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=2e-4)
    for epoch in range(epochs):
        model.train()
        loss = model(x, adj)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if epoch % 2 == 0:
            print(f"epoch {epoch:03d} sce {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    features, adjacency = random_graph()
    pretrain(GraphMAE(num_features=features.size(1)), features, adjacency)
