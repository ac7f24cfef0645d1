import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from networks import MLPRegressorNetwork


class BaseDeepRegressorTorch:
    def __init__(self, num_epochs=2, batch_size=4, lr=1e-3, random_state=0):
        self.num_epochs = num_epochs
        self.batch_size = batch_size
        self.lr = lr
        self.random_state = random_state

    def _build_dataloader(self, X, y):
        dataset = TensorDataset(torch.as_tensor(X, dtype=torch.float32), torch.as_tensor(y, dtype=torch.float32))
        return DataLoader(dataset, batch_size=self.batch_size, shuffle=True)

    def _run_epoch(self, dataloader):
        self.network.train()
        total = 0.0
        for inputs, outputs in dataloader:
            self._optimizer.zero_grad()
            y_pred = self.network(inputs)
            loss = self._criterion(y_pred, outputs)
            loss.backward()
            self._optimizer.step()
            total += loss.item()
        return total / len(dataloader)

    def fit(self, X, y):
        torch.manual_seed(self.random_state)
        self.network = MLPRegressorNetwork(X.shape[2], X.shape[1])
        self._criterion = torch.nn.MSELoss()
        self._optimizer = torch.optim.Adam(self.network.parameters(), lr=self.lr)
        loader = self._build_dataloader(X, y)
        self.history_ = [self._run_epoch(loader) for _ in range(self.num_epochs)]
        return self


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    X, y = rng.random((12, 2, 20)), rng.random(12)
    print(BaseDeepRegressorTorch().fit(X, y).history_)
