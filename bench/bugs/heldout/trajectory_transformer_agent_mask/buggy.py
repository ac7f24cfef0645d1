import argparse

import torch
import torch.nn as nn


def build_agent_mask(agent_ids):
    """Tokens attend only to tokens of the same agent: True marks a blocked pair."""
    same = agent_ids[:, :, None] == agent_ids[:, None, :]
    return ~same


class InteractionBlock(nn.Module):
    def __init__(self, dim, heads, dropout):
        super().__init__()
        self.heads = heads
        self.attn = nn.MultiheadAttention(dim, heads, dropout=dropout, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(dim, dim * 2), nn.GELU(), nn.Linear(dim * 2, dim))
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)

    def forward(self, x, mask):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.ff(self.norm2(x))


class TrajectoryPredictor(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.inp = nn.Linear(2, args.dim)
        self.blocks = nn.ModuleList(InteractionBlock(args.dim, args.heads, args.dropout) for _ in range(args.depth))
        self.out = nn.Linear(args.dim, 2 * args.horizon)

    def forward(self, xy, agent_ids):
        mask = build_agent_mask(agent_ids)
        x = self.inp(xy)
        for block in self.blocks:
            x = block(x, mask)
        return self.out(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dim", type=int, default=32)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--dropout", type=float, default=0.1)
    parser.add_argument("--horizon", type=int, default=3)
    args = parser.parse_args([])
    torch.manual_seed(0)
    model = TrajectoryPredictor(args)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(3):
        xy = torch.randn(2, 10, 2)
        agent_ids = torch.randint(0, 3, (2, 10))
        future = torch.randn(2, 10, 2 * args.horizon)
        loss = nn.functional.mse_loss(model(xy, agent_ids), future)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
