import torch
from torch import nn


class SensorClassifier(nn.Module):
    """Classifies accelerometer windows from the final hidden states of a bidirectional GRU."""

    def __init__(self, n_channels: int = 6, hidden: int = 48, n_classes: int = 5) -> None:
        super().__init__()
        self.gru = nn.GRU(n_channels, hidden, batch_first=True, bidirectional=True)
        self.head = nn.Linear(2 * hidden, n_classes)

    def forward(self, windows: torch.Tensor) -> torch.Tensor:
        _, h_n = self.gru(windows)
        return self.head(torch.cat([h_n[0], h_n[1]], dim=-1))


if __name__ == "__main__":
    model = SensorClassifier()
    windows = torch.randn(8, 100, 6)
    labels = torch.randint(0, 5, (8,))
    logits = model(windows)
    loss = nn.functional.cross_entropy(logits, labels)
    loss.backward()
    print(loss.item())
