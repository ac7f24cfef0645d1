import torch
from torch.utils.data import DataLoader, TensorDataset

from network import InterpNet
from trainer import Trainer


def triplets(n, size=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    base = torch.rand(n, 3, size, size, generator=g)
    shift = 0.05 * torch.randn(n, 3, size, size, generator=g)
    return TensorDataset(base - shift, base, base + shift)


def main():
    torch.manual_seed(0)
    loader = DataLoader(triplets(64), batch_size=4, shuffle=True)
    trainer = Trainer(InterpNet(), loader)
    for epoch in range(2):
        trainer.train_epoch(epoch)
    print(trainer.summary())


if __name__ == "__main__":
    main()
