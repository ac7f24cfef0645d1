import random

import torch
import torch.nn as nn
import torch.nn.functional as F

from config import CONFIG
from model import FamilyCNN


def random_family_sequences(cfg, n, seed=0):
    rng = random.Random(seed)
    motifs = ["".join(rng.choice(cfg["alphabet"]) for _ in range(6)) for _ in range(cfg["n_families"])]
    seqs, labels = [], []
    for _ in range(n):
        fam = rng.randrange(cfg["n_families"])
        s = [rng.choice(cfg["alphabet"]) for _ in range(cfg["seq_len"])]
        pos = rng.randrange(cfg["seq_len"] - 6)
        s[pos:pos + 6] = motifs[fam]
        seqs.append(s)
        labels.append(fam)
    index = {a: i for i, a in enumerate(cfg["alphabet"])}
    ids = torch.tensor([[index[a] for a in s] for s in seqs])
    return F.one_hot(ids, len(cfg["alphabet"])).permute(0, 2, 1).float(), torch.tensor(labels)


def main():
    torch.manual_seed(0)
    cfg = CONFIG
    x, y = random_family_sequences(cfg, 64)
    model = FamilyCNN(cfg)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(len(y))
        for i in range(0, len(y), cfg["batch_size"]):
            idx = perm[i:i + cfg["batch_size"]]
            pred = model(x[idx])
            loss = loss_fn(pred, y[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
