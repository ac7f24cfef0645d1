import torch
import torch.nn as nn

from network import LeafNet
from trainer import Trainer


def get_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(n, 24, generator=g), torch.randint(0, 12, (n,), generator=g)


def main(num_epochs=3, batch_size=16):
    torch.manual_seed(0)
    x_train, y_train = get_split(64, 0)
    x_valid, y_valid = get_split(32, 1)
    trainer = Trainer(LeafNet(), nn.CrossEntropyLoss())
    for epoch in range(num_epochs):
        perm = torch.randperm(len(x_train))
        losses = []
        for i in range(0, len(perm), batch_size):
            idx = perm[i : i + batch_size]
            losses.append(trainer.fit_batch(x_train[idx], y_train[idx]))
        print(f"epoch {epoch}: train loss {sum(losses) / len(losses):.3f}, valid acc {trainer.accuracy(x_valid, y_valid):.3f}")


if __name__ == "__main__":
    main()
