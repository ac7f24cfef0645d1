"""Multi-expert ranking model: a sigmoid gate per expert, the first (shared) expert always fully on."""
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

log = logging.getLogger("ranker")


class Expert(nn.Module):
    def __init__(self, d_in, d_hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, d_hidden), nn.ReLU(), nn.Linear(d_hidden, 1))

    def forward(self, x):
        return self.net(x)


class GatedRanker(nn.Module):
    def __init__(self, d_in=16, d_hidden=24, n_experts=4):
        super().__init__()
        self.experts = nn.ModuleList(Expert(d_in, d_hidden) for _ in range(n_experts))
        self.gate = nn.Linear(d_in, n_experts)

    def forward(self, x):
        scores = torch.cat([expert(x) for expert in self.experts], dim=1)
        gates = torch.sigmoid(self.gate(x))
        gates[:, 0] = 1.0
        return (gates * scores).sum(dim=1) / gates.sum(dim=1)


def pairwise_hinge(pos, neg, margin=1.0):
    return F.relu(margin - (pos - neg)).mean()


def main(steps=3, batch=8):
    torch.manual_seed(0)
    model = GatedRanker()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        pos, neg = torch.randn(batch, 16) + 0.5, torch.randn(batch, 16)
        opt.zero_grad()
        loss = pairwise_hinge(model(pos), model(neg))
        loss.backward()
        opt.step()
        log.info("step %d loss %.4f", step, loss.item())


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
