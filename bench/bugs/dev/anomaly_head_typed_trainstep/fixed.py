"""Multiple-instance ranking head trained on pre-extracted clip features."""
import torch
from torch import Tensor, nn


class AnomalyHead(nn.Module):
    """Scores one 32-segment bag of ResNet-50 clip features."""

    def __init__(self, dropout: float = 0.6) -> None:
        super().__init__()
        self.fc1 = nn.Linear(2048, 512)
        self.fc2 = nn.Linear(512, 32)
        self.fc3 = nn.Linear(32, 1)
        self.drop = nn.Dropout(dropout)

    def forward(self, x: Tensor) -> Tensor:
        x = self.drop(torch.relu(self.fc1(x)))
        x = self.drop(self.fc2(x))
        return torch.sigmoid(self.fc3(x))


def ranking_loss(scores: Tensor, bags: int, segments: int) -> Tensor:
    scores = scores.view(2 * bags, segments)
    normal, anomalous = scores[:bags], scores[bags:]
    hinge = torch.relu(1.0 - anomalous.max(dim=1).values + normal.max(dim=1).values)
    smooth = (anomalous[:, 1:] - anomalous[:, :-1]).pow(2).sum(dim=1)
    sparse = anomalous.sum(dim=1)
    return (hinge + 8e-5 * smooth + 8e-5 * sparse).mean()


def train_step(model: AnomalyHead, optimizer: torch.optim.Optimizer, bags: int = 4, segments: int = 32) -> float:
    normal = torch.randn(bags, segments, 2048)
    anomalous = torch.randn(bags, segments, 2048)
    features = torch.cat([normal, anomalous], dim=0).view(-1, 2048)
    model.train()
    optimizer.zero_grad()
    scores = model(features)
    loss = ranking_loss(scores, bags, segments)
    loss.backward()
    optimizer.step()
    return loss.item()


def main() -> None:
    head = AnomalyHead()
    optimizer = torch.optim.Adagrad(head.parameters(), lr=1e-3, weight_decay=1e-3)
    for step in range(2):
        print(f"step {step}: ranking loss {train_step(head, optimizer):.4f}")


if __name__ == "__main__":
    main()
