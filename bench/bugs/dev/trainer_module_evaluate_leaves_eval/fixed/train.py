import torch

from model import MLP
from trainer import Trainer


def batches(n):
    return [(torch.randn(16, 10), torch.randint(0, 3, (16,))) for _ in range(n)]


model = MLP()
trainer = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.1))
train_set, val_set = batches(4), batches(2)
model.train()
for epoch in range(3):
    loss = trainer.train_epoch(train_set)
    acc = trainer.evaluate(val_set)
    print(f"epoch {epoch}: loss {loss:.3f} acc {acc:.3f}")
