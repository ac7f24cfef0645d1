import torch

from models import FCN8sLite
from trainer import Trainer


def make_loader(n_batches, seed):
    g = torch.Generator().manual_seed(seed)
    return [(torch.rand(2, 3, 32, 32, generator=g), torch.randint(0, 3, (2, 32, 32), generator=g)) for _ in range(n_batches)]


def main():
    torch.manual_seed(1337)
    model = FCN8sLite()
    optim = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.99, weight_decay=5e-4)
    trainer = Trainer(model, optim, make_loader(4, 0), make_loader(2, 1), max_iter=6, interval_validate=3)
    trainer.train()


if __name__ == "__main__":
    main()
