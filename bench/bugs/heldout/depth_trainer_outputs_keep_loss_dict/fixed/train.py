import torch

from model_wrapper import SelfSupModel
from trainer import BaseTrainer


def synthetic_loader(n_batches=6, batch_size=2, size=32):
    for _ in range(n_batches):
        yield {"rgb": torch.rand(batch_size, 3, size, size), "rgb_context": torch.rand(batch_size, 3, size, size)}


class ListLoader:
    def __init__(self, **kwargs):
        torch.manual_seed(0)
        self.batches = list(synthetic_loader(**kwargs))

    def __iter__(self):
        return iter(self.batches)


if __name__ == "__main__":
    model = SelfSupModel()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-4)
    BaseTrainer(max_epochs=2).fit(model, ListLoader(), optimizer)
