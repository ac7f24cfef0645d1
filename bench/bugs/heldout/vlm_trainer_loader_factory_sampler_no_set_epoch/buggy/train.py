import torch
import torch.nn.functional as F

from data import get_dataloaders
from model import TinyVLM

WORLD_SIZE, RANK = 2, 0


def train(epochs: int = 3, batch_size: int = 4) -> None:
    torch.manual_seed(0)
    train_loader = get_dataloaders(batch_size, WORLD_SIZE, RANK)
    model = TinyVLM()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    global_step = 0
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for images, captions in train_loader:
            logits = model(images, captions)
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), captions.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
            global_step += 1
        print(f"epoch {epoch}: loss {total / len(train_loader):.3f} (step {global_step})")


if __name__ == "__main__":
    train()
