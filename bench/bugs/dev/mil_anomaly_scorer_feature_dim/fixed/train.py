from dataclasses import dataclass

import torch
from torch.utils.data import DataLoader, Dataset

from model import AnomalyScorer, ranking_loss


@dataclass
class Config:
    feature_extractor: str = "r3d101"
    feature_dim: int = 512
    n_segments: int = 32
    batch_size: int = 4
    lr: float = 1e-3
    epochs: int = 2


class SegmentFeatures(Dataset):
    """Pairs of (anomalous, normal) videos, each cut into n_segments pooled clip features."""

    def __init__(self, n_videos: int, n_segments: int, dim: int) -> None:
        self.anomalous = torch.randn(n_videos, n_segments, dim)
        self.normal = torch.randn(n_videos, n_segments, dim)

    def __len__(self) -> int:
        return len(self.anomalous)

    def __getitem__(self, i: int) -> torch.Tensor:
        return torch.stack([self.anomalous[i], self.normal[i]])


def train(cfg: Config) -> None:
    data = SegmentFeatures(16, cfg.n_segments, cfg.feature_dim)
    loader = DataLoader(data, batch_size=cfg.batch_size, shuffle=True)
    model = AnomalyScorer(input_dim=cfg.feature_dim)
    optimizer = torch.optim.Adagrad(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        for pairs in loader:
            feats = pairs.view(-1, cfg.feature_dim)
            scores = model(feats)
            loss = ranking_loss(scores, cfg.n_segments)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    train(Config())
