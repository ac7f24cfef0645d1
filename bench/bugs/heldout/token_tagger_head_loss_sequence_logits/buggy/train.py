import torch
from torch.utils.data import DataLoader

from data import collate, make_corpus
from model import Tagger


def run_epoch(model: Tagger, loader: DataLoader, optimizer: torch.optim.Optimizer) -> float:
    model.train()
    total, batches = 0.0, 0
    for tokens, tags in loader:
        logits = model(tokens)
        loss = model.head.loss(logits, tags)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()
        total += loss.item()
        batches += 1
    return total / batches


def main() -> None:
    torch.manual_seed(0)
    loader = DataLoader(make_corpus(), batch_size=6, shuffle=True, collate_fn=collate)
    model = Tagger()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(2):
        print(f"epoch {epoch} loss {run_epoch(model, loader, optimizer):.4f}")


if __name__ == "__main__":
    main()
