import torch
import torch.nn as nn
from torch.utils.data import DataLoader, random_split

from data import StabilityDataset
from model import CNNRegressor


class RegressionTask:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.loss_fn = nn.MSELoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def step(self, seqs, y):
        pred = self.model(seqs).squeeze(-1)
        loss = self.loss_fn(pred, y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        errs = [(self.model(s).squeeze(-1) - y).pow(2).mean().item() for s, y in loader]
        self.model.train()
        return sum(errs) / len(errs)


def main():
    torch.manual_seed(0)
    train_set, val_set = random_split(StabilityDataset(), [32, 8], generator=torch.Generator().manual_seed(0))
    train_loader = DataLoader(train_set, batch_size=8, shuffle=True)
    val_loader = DataLoader(val_set, batch_size=8)
    task = RegressionTask(CNNRegressor())
    for epoch in range(2):
        losses = [task.step(seqs, y) for seqs, y in train_loader]
        print(f"epoch {epoch} train mse {sum(losses) / len(losses):.4f} val mse {task.evaluate(val_loader):.4f}")


if __name__ == "__main__":
    main()
