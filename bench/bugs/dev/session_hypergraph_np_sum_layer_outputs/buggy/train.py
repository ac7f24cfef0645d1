import random

import torch
import torch.nn.functional as F

from graph import session_hypergraph
from model import SessionRecommender

N_ITEMS = 30


def make_sessions(n, seed=0):
    rng = random.Random(seed)
    return [[rng.randrange(N_ITEMS) for _ in range(rng.randint(2, 5))] for _ in range(n)]


def to_batch(sessions):
    width = max(len(s) - 1 for s in sessions)
    items = torch.zeros(len(sessions), width, dtype=torch.long)
    mask = torch.zeros(len(sessions), width)
    for i, s in enumerate(sessions):
        items[i, :len(s) - 1] = torch.tensor(s[:-1])
        mask[i, :len(s) - 1] = 1.0
    targets = torch.tensor([s[-1] for s in sessions])
    return items, mask, targets


def main():
    torch.manual_seed(0)
    sessions = make_sessions(40)
    model = SessionRecommender(session_hypergraph(sessions, N_ITEMS), N_ITEMS)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)
    for epoch in range(2):
        random.Random(epoch).shuffle(sessions)
        for i in range(0, len(sessions), 10):
            items, mask, targets = to_batch(sessions[i:i + 10])
            scores = model(items, mask)
            loss = F.cross_entropy(scores, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
