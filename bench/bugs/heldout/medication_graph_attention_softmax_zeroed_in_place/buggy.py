import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphAttentionLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.query = nn.Linear(dim, dim)
        self.key = nn.Linear(dim, dim)
        self.value = nn.Linear(dim, dim)

    def forward(self, nodes, adj):
        scores = torch.bmm(self.query(nodes), self.key(nodes).transpose(1, 2)) / nodes.size(-1) ** 0.5
        attn = torch.softmax(scores, dim=-1)
        attn[adj == 0] = 0
        return torch.bmm(attn, self.value(nodes))


class MedicationRecommender(nn.Module):
    def __init__(self, n_codes, n_meds, dim=16):
        super().__init__()
        self.code_embedding = nn.Embedding(n_codes, dim)
        self.gat = GraphAttentionLayer(dim)
        self.out = nn.Linear(dim, n_meds)

    def forward(self, codes, adj):
        h = self.gat(self.code_embedding(codes), adj)
        return self.out(h.mean(dim=1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--n_codes", type=int, default=30)
    parser.add_argument("--n_meds", type=int, default=12)
    args = parser.parse_args([])
    torch.manual_seed(0)

    model = MedicationRecommender(args.n_codes, args.n_meds)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    codes = torch.randint(0, args.n_codes, (4, 6))
    adj = (torch.rand(4, 6, 6) > 0.3).long()
    targets = (torch.rand(4, args.n_meds) > 0.7).float()
    for epoch in range(args.epochs):
        logits = model(codes, adj)
        loss = F.binary_cross_entropy_with_logits(logits, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
