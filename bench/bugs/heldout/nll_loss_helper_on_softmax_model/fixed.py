import torch
from torch import nn
import torch.nn.functional as F


class PairClassifier(nn.Module):
    """Scores whether two mentions corefer: 3 relations."""

    def __init__(self, dim: int = 24) -> None:
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3 * dim, 64), nn.ReLU(), nn.Linear(64, 3))

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        logits = self.mlp(torch.cat([a, b, a * b], dim=-1))
        return F.log_softmax(logits, dim=-1)


def evaluate_loss(model: nn.Module, a: torch.Tensor, b: torch.Tensor, y: torch.Tensor) -> float:
    model.eval()
    with torch.no_grad():
        return F.nll_loss(model(a, b), y).item()


if __name__ == "__main__":
    model = PairClassifier()
    a, b = torch.randn(50, 24), torch.randn(50, 24)
    y = torch.randint(0, 3, (50,))
    print("validation loss", evaluate_loss(model, a, b, y))
