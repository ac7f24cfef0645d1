"""Road-sensor speed regression with a two-layer GCN over a fixed sensor graph (full-batch, node-level)."""
import torch
import torch.nn as nn


def normalized_adjacency(edge_index: torch.Tensor, n_nodes: int) -> torch.Tensor:
    adj = torch.zeros(n_nodes, n_nodes)
    adj[edge_index[0], edge_index[1]] = 1.0
    adj = adj + adj.t() + torch.eye(n_nodes)
    adj = (adj > 0).float()
    deg_inv_sqrt = adj.sum(1).pow(-0.5)
    return deg_inv_sqrt[:, None] * adj * deg_inv_sqrt[None, :]


class GCNLayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, x, a_hat):
        return a_hat @ self.lin(x)


class SpeedGCN(nn.Module):
    def __init__(self, in_dim, hidden=32, dropout=0.2):
        super().__init__()
        self.conv1, self.conv2 = GCNLayer(in_dim, hidden), GCNLayer(hidden, 1)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, a_hat):
        return self.conv2(self.dropout(torch.relu(self.conv1(x, a_hat))), a_hat)


def rmse(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return torch.sqrt(((pred - target) ** 2).mean())


def main():
    torch.manual_seed(0)
    n_nodes, n_feats = 80, 12
    edge_index = torch.randint(0, n_nodes, (2, 240))
    a_hat = normalized_adjacency(edge_index, n_nodes)
    x = torch.randn(n_nodes, n_feats)
    speed = 60 + 5 * x[:, :3].sum(1)
    train_mask = torch.rand(n_nodes) < 0.7

    model = SpeedGCN(n_feats)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)
    mean, std = speed[train_mask].mean(), speed[train_mask].std()
    for epoch in range(30):
        model.train()
        out = model(x, a_hat)
        loss = rmse(out[train_mask], (speed[train_mask] - mean) / std)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if epoch % 10 == 0:
            with torch.no_grad():
                model.eval()
                val = rmse(model(x, a_hat).squeeze(-1)[~train_mask] * std + mean, speed[~train_mask])
            print(f"epoch {epoch} train {loss.item():.3f} val rmse {val.item():.2f} km/h")


if __name__ == "__main__":
    main()
