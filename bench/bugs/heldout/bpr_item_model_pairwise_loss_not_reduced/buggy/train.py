import argparse

import torch
from torch.utils.data import DataLoader, Dataset

from model import BPR_Item


class TripletData(Dataset):
    """(user, positive item, sampled negative item) triples from an implicit-feedback matrix."""

    def __init__(self, interactions, item_size, seed=0):
        self.pairs = interactions.nonzero()
        self.item_size = item_size
        self.interactions = interactions
        self.gen = torch.Generator().manual_seed(seed)

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, idx):
        u, i = self.pairs[idx]
        j = torch.randint(0, self.item_size, (1,), generator=self.gen).item()
        while self.interactions[u, j]:
            j = (j + 1) % self.item_size
        return u, i, torch.tensor(j)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dim", type=int, default=8)
    parser.add_argument("--weight-decay", type=float, default=0.025)
    parser.add_argument("--lr", type=float, default=1e-2)
    parser.add_argument("--batch-size", type=int, default=16)
    args = parser.parse_args([])
    torch.manual_seed(0)
    users, items = 20, 30
    interactions = torch.rand(users, items) < 0.15
    loader = DataLoader(TripletData(interactions, items), batch_size=args.batch_size, shuffle=True)
    model = BPR_Item(users, items, args.dim, args.weight_decay)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(2):
        for u, i, j in loader:
            optimizer.zero_grad()
            loss = model(u, i, j)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f} top items {model.recommend(torch.tensor([0]))[0].tolist()}")


if __name__ == "__main__":
    main()
