import torch.nn as nn
import torch.nn.functional as F


class CNNRegressor(nn.Module):
    def __init__(self, n_tokens=20, hidden=32, kernel=5):
        super().__init__()
        self.n_tokens = n_tokens
        self.conv = nn.Sequential(
            nn.Conv1d(n_tokens, hidden, kernel, padding=kernel // 2), nn.ReLU(),
            nn.Conv1d(hidden, hidden, kernel, padding=kernel // 2), nn.ReLU(),
        )
        self.head = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, seqs):
        x = F.one_hot(seqs, self.n_tokens).float().transpose(1, 2)
        return self.head(self.conv(x).mean(dim=-1))
