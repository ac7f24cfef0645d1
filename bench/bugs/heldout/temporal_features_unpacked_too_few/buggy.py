import torch
from torch import nn


class TemporalScorer(nn.Module):
    def __init__(self, feat_dim: int = 64) -> None:
        super().__init__()
        self.conv = nn.Conv1d(feat_dim, 32, 3, padding=1)
        self.fc = nn.Linear(32, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, d = x.size()
        h = torch.relu(self.conv(x.permute(0, 2, 1))).permute(0, 2, 1)
        return torch.sigmoid(self.fc(h)).view(b, t)


scorer = TemporalScorer().eval()
video_feats = torch.randn(32, 64)
with torch.no_grad():
    print(scorer(video_feats).shape)
