import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from model import FullyConnectedNet


class Trainer:
    def __init__(self, model: FullyConnectedNet, lr: float = 0.01, momentum: float = 0.9):
        self.model = model
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=momentum)

    def fit_epoch(self, loader: DataLoader) -> tuple[float, float]:
        self.model.train()
        total_loss, correct, seen = 0.0, 0, 0
        for images, labels in loader:
            outputs = self.model(images)
            loss = self.criterion(outputs, labels)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total_loss += loss.item() * len(labels)
            correct += (outputs.argmax(1) == labels).sum().item()
            seen += len(labels)
        return total_loss / seen, correct / seen


def main() -> None:
    torch.manual_seed(0)
    images = torch.randn(64, 3, 8, 8)
    labels = torch.randint(0, 10, (64,))
    loader = DataLoader(TensorDataset(images, labels), batch_size=16, shuffle=True)
    trainer = Trainer(FullyConnectedNet())
    for epoch in range(2):
        loss, acc = trainer.fit_epoch(loader)
        print(f"epoch {epoch}: loss {loss:.3f} acc {acc:.2f}")


if __name__ == "__main__":
    main()
