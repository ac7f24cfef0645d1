import torch.nn as nn
import torch.nn.functional as F

from gnn.layers import GraphConvolution


class GCN(nn.Module):
    def __init__(self, in_dim: int, hidden: int, n_classes: int, dropout: float = 0.5):
        super().__init__()
        self.gc1 = GraphConvolution(in_dim, hidden)
        self.gc2 = GraphConvolution(hidden, n_classes)
        self.dropout = dropout

    def forward(self, x, adj):
        x = F.relu(self.gc1(x, adj))
        x = F.dropout(x, self.dropout, training=self.training)
        return self.gc2(x, adj)
