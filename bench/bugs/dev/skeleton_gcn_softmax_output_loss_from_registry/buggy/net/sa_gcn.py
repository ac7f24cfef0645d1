import torch
import torch.nn as nn


def chain_adjacency(num_joints):
    a = torch.eye(num_joints)
    idx = torch.arange(num_joints - 1)
    a[idx, idx + 1] = 1.0
    a[idx + 1, idx] = 1.0
    return a / a.sum(1, keepdim=True)


class GraphTemporalBlock(nn.Module):
    def __init__(self, cin, cout, adjacency, kernel=3):
        super().__init__()
        self.register_buffer("A", adjacency)
        self.gcn = nn.Conv2d(cin, cout, 1)
        self.tcn = nn.Sequential(nn.BatchNorm2d(cout), nn.ReLU(),
                                 nn.Conv2d(cout, cout, (kernel, 1), padding=(kernel // 2, 0)), nn.BatchNorm2d(cout))
        self.residual = nn.Conv2d(cin, cout, 1) if cin != cout else nn.Identity()

    def forward(self, x):
        # x: (N, C, T, V)
        h = torch.einsum("nctv,vw->nctw", self.gcn(x), self.A)
        return torch.relu(self.tcn(h) + self.residual(x))


class SAGCN(nn.Module):
    def __init__(self, num_class, num_joints=10, in_channels=3, width=16, dropout=0.3):
        super().__init__()
        adjacency = chain_adjacency(num_joints)
        self.data_bn = nn.BatchNorm1d(in_channels * num_joints)
        self.blocks = nn.Sequential(GraphTemporalBlock(in_channels, width, adjacency),
                                    GraphTemporalBlock(width, 2 * width, adjacency))
        self.drop = nn.Dropout(dropout)
        self.fc = nn.Linear(2 * width, num_class)
        self.softmax = nn.Softmax(dim=1)

    def forward(self, x):
        n, c, t, v = x.shape
        x = self.data_bn(x.permute(0, 3, 1, 2).reshape(n, v * c, t)).reshape(n, v, c, t).permute(0, 2, 3, 1)
        x = self.blocks(x).mean(dim=(2, 3))
        return self.softmax(self.fc(self.drop(x)))
