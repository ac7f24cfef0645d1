import argparse
import math

import torch
import torch.nn.functional as F
from torch import nn


class FeatTrans(nn.Module):
    """Transforms each node's feature map with a weight shared by every graph in the batch."""

    def __init__(self, in_features: int, out_features: int) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_features, out_features))
        self.bias = nn.Parameter(torch.zeros(out_features))
        nn.init.uniform_(self.weight, -1 / math.sqrt(in_features), 1 / math.sqrt(in_features))

    def forward(self, x: torch.Tensor, adj: torch.Tensor) -> torch.Tensor:
        support = torch.einsum("bnf,bfo->bno", x, self.weight)
        return torch.bmm(adj, support) + self.bias


class GraphNet(nn.Module):
    def __init__(self, feat_len: int, hidden: int, num_class: int) -> None:
        super().__init__()
        self.layer1 = FeatTrans(feat_len, hidden)
        self.layer2 = FeatTrans(hidden, hidden)
        self.classifier = nn.Linear(hidden, num_class)

    def forward(self, x: torch.Tensor, adj: torch.Tensor) -> torch.Tensor:
        x = F.relu(self.layer1(x, adj))
        x = F.relu(self.layer2(x, adj))
        return self.classifier(x.mean(dim=1))


def normalize(adj: torch.Tensor) -> torch.Tensor:
    adj = adj + torch.eye(adj.size(-1))
    deg = adj.sum(-1).pow(-0.5)
    return deg.unsqueeze(-1) * adj * deg.unsqueeze(-2)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--feat-len", type=int, default=24)
    parser.add_argument("--hidden", type=int, default=16)
    parser.add_argument("--num-class", type=int, default=3)
    args = parser.parse_args([])
    net = GraphNet(args.feat_len, args.hidden, args.num_class)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.01)
    x = torch.randn(4, 10, args.feat_len)
    adj = normalize((torch.rand(4, 10, 10) > 0.7).float())
    y = torch.randint(0, args.num_class, (4,))
    for it in range(3):
        loss = F.cross_entropy(net(x, adj), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(it, loss.item())
