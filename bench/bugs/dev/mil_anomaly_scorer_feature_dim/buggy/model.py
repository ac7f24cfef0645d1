import torch
from torch import nn


class AnomalyScorer(nn.Module):
    """Scores each video segment from its pooled clip feature (MIL ranking, Sultani et al.)."""

    def __init__(self, input_dim: int = 4096, hidden: int = 512, dropout: float = 0.6) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(input_dim, hidden),
            nn.ReLU(),
            nn.Dropout(dropout),
            nn.Linear(hidden, 32),
            nn.Dropout(dropout),
            nn.Linear(32, 1),
            nn.Sigmoid(),
        )

    def forward(self, segments: torch.Tensor) -> torch.Tensor:
        return self.net(segments).squeeze(-1)


def ranking_loss(scores: torch.Tensor, n_segments: int, margin: float = 1.0) -> torch.Tensor:
    scores = scores.view(-1, 2, n_segments)
    anomalous, normal = scores[:, 0], scores[:, 1]
    hinge = torch.relu(margin - anomalous.max(dim=1).values + normal.max(dim=1).values)
    smooth = (anomalous[:, 1:] - anomalous[:, :-1]).pow(2).sum(dim=1)
    sparse = anomalous.sum(dim=1)
    return (hinge + 8e-5 * smooth + 8e-5 * sparse).mean()
