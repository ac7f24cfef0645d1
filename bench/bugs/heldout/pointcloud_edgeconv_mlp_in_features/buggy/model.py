import torch
import torch.nn as nn


def knn(x, k):
    """Indices of the k nearest points of every point, x (B, N, C) -> (B, N, k)."""
    dist = torch.cdist(x, x)
    return dist.topk(k, dim=-1, largest=False).indices


def edge_features(x, idx):
    """[x_i, x_j - x_i] for each point i and neighbour j: (B, N, k, 2C)."""
    batch, num_points, channels = x.shape
    k = idx.size(-1)
    flat = x.reshape(batch * num_points, channels)
    offset = (torch.arange(batch) * num_points).view(-1, 1, 1)
    neighbours = flat[(idx + offset).view(-1)].view(batch, num_points, k, channels)
    central = x.unsqueeze(2).expand(-1, -1, k, -1)
    return torch.cat([central, neighbours - central], dim=-1)


class EdgeConv(nn.Module):
    def __init__(self, in_features, out_features, k=6):
        super().__init__()
        self.k = k
        self.mlp = nn.Sequential(
            nn.Linear(in_features, out_features),
            nn.ReLU(),
            nn.Linear(out_features, out_features),
        )

    def forward(self, x):
        feats = edge_features(x, knn(x, self.k))
        return self.mlp(feats).max(dim=2).values


class DGCNN(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        convs, in_features = [], 3
        for width in cfg.widths:
            convs.append(EdgeConv(in_features, width, k=cfg.k))
            in_features = width
        self.convs = nn.ModuleList(convs)
        self.embed = nn.Linear(sum(cfg.widths), cfg.emb_dims)
        self.head = nn.Sequential(nn.ReLU(), nn.Dropout(0.5), nn.Linear(cfg.emb_dims, cfg.num_classes))

    def forward(self, points):
        outs, x = [], points
        for conv in self.convs:
            x = conv(x)
            outs.append(x)
        x = self.embed(torch.cat(outs, dim=-1)).max(dim=1).values
        return self.head(x)
