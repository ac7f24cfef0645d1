from typing import Tuple

import torch
from torch.optim import Optimizer
from torch.utils.data import DataLoader

Tensor = torch.Tensor


class PyTorchTrainer:
    def __init__(self, model, optim: Optimizer, criterion):
        self.model = model
        self.optim = optim
        self.loss = criterion
        self._check_optim_net_aligned()

    def _check_optim_net_aligned(self):
        assert self.optim.param_groups[0]["params"] == list(self.model.parameters())

    def fit(self, train_dataloader: DataLoader, test_data: Tuple[Tensor, Tensor], epochs: int = 5, eval_every: int = 1):
        X_test, y_test = test_data
        for e in range(epochs):
            for X_batch, y_batch in train_dataloader:
                self.optim.zero_grad()
                output = self.model(X_batch)
                loss = self.loss(output, y_batch)
                loss.backward()
                self.optim.step()

            if (e + 1) % eval_every == 0:
                self.model.eval()
                with torch.no_grad():
                    test_loss = self.loss(self.model(X_test), y_test)
                print(f"The loss after {e + 1} epochs was {test_loss.item():.4f}")
