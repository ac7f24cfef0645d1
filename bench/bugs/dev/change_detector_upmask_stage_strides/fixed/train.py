import torch
from torch import nn

from model import ChangeClassifier


def make_pairs(n: int = 4, size: int = 32):
    reference = torch.rand(n, 3, size, size)
    testimg = reference.clone()
    mask = torch.zeros(n, 1, size, size)
    testimg[:, :, 8:16, 8:16] += 0.5
    mask[:, :, 8:16, 8:16] = 1.0
    return reference, testimg, mask


def train(epochs: int = 2) -> None:
    model = ChangeClassifier()
    criterion = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-3)
    reference, testimg, mask = make_pairs()

    def evaluate(reference, testimg, mask):
        generated_mask = model(reference, testimg)
        return criterion(generated_mask, mask)

    for epc in range(epochs):
        optimizer.zero_grad()
        it_loss = evaluate(reference, testimg, mask)
        it_loss.backward()
        optimizer.step()
        print(f"epoch {epc}: {it_loss.item():.4f}")


if __name__ == "__main__":
    train()
