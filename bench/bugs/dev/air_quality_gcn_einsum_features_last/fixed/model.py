import torch
import torch.nn as nn


class GraphConv(nn.Module):
    def __init__(self, in_channels, out_channels, hops=2):
        super().__init__()
        self.hops = hops
        self.mix = nn.Conv1d(in_channels * (hops + 1), out_channels, kernel_size=1)

    def _propagate(self, x, adj):
        # x: (batch, channels, nodes); adj: (nodes, nodes), rows sum to one
        return torch.einsum("bcn,nm->bcm", x, adj)

    def forward(self, x, adj):
        out = [x]
        h = x
        for _ in range(self.hops):
            h = self._propagate(h, adj)
            out.append(h)
        return self.mix(torch.cat(out, dim=1))


class StationForecaster(nn.Module):
    def __init__(self, in_features, hidden=16, hops=2):
        super().__init__()
        self.gc1 = GraphConv(in_features, hidden, hops)
        self.gc2 = GraphConv(hidden, hidden, hops)
        self.readout = nn.Conv1d(hidden, 1, kernel_size=1)

    def forward(self, x, adj):
        h = torch.relu(self.gc1(x, adj))
        h = torch.relu(self.gc2(h, adj))
        return self.readout(h).squeeze(1)
