import torch
from torch import nn
import torch.nn.functional as F


class SoftmaxClassifier(nn.Module):
    def __init__(self, in_features: int = 32, num_classes: int = 6) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_features, 64), nn.ReLU(), nn.Linear(64, num_classes))

    def forward(self, x: torch.Tensor, target: torch.Tensor | None = None):
        log_probs = F.log_softmax(self.body(x), dim=-1)
        if target is None:
            return log_probs
        return log_probs, -(target * log_probs).sum(dim=-1).mean()


def mixup(x: torch.Tensor, y: torch.Tensor, num_classes: int, alpha: float = 0.4):
    lam = torch.distributions.Beta(alpha, alpha).sample()
    perm = torch.randperm(x.size(0))
    y_onehot = F.one_hot(y, num_classes).float()
    return lam * x + (1 - lam) * x[perm], lam * y_onehot + (1 - lam) * y_onehot[perm]


def train(model: SoftmaxClassifier, steps: int = 2) -> None:
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for _ in range(steps):
        x, y = torch.randn(16, 32), torch.randint(0, 6, (16,))
        x_mix, y_mix = mixup(x, y, num_classes=6)
        _, loss = model(x_mix, y_mix)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"loss {loss.item():.3f}")


if __name__ == "__main__":
    train(SoftmaxClassifier())
