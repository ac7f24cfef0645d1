from dataclasses import dataclass

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


@dataclass
class ArchArgs:
    input_dim: int = 3
    hidden_dim: int = 32
    num_layers: int = 1
    output_dim: int = 1
    batch_size: int = 16


class WindowDataset(Dataset):
    """Sliding windows over a multivariate series; the target is the next value of channel 0."""

    def __init__(self, length: int = 50, window: int = 15, channels: int = 3) -> None:
        t = torch.arange(length, dtype=torch.float32)
        self.series = torch.stack([torch.sin(t / (c + 2)) for c in range(channels)], dim=1)
        self.window = window

    def __len__(self) -> int:
        return len(self.series) - self.window

    def __getitem__(self, i: int):
        x = self.series[i : i + self.window]
        return x, self.series[i + self.window, :1]


class Model(nn.Module):
    """Stateless LSTM: the hidden state is reset to zeros for every batch."""

    def __init__(self, args: ArchArgs) -> None:
        super().__init__()
        self.args = args
        self.lstm = nn.LSTM(args.input_dim, args.hidden_dim, args.num_layers, batch_first=True)
        self.model_out = nn.Linear(args.hidden_dim, args.output_dim)

    def _init_hidden(self):
        shape = (self.args.num_layers, self.args.batch_size, self.args.hidden_dim)
        return torch.zeros(shape), torch.zeros(shape)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out, _ = self.lstm(x, self._init_hidden())
        return self.model_out(out[:, -1])


def fit(model: Model, loader: DataLoader, epochs: int = 2) -> None:
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.MSELoss()
    for epoch in range(epochs):
        for x, y in loader:
            loss = loss_fn(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    args = ArchArgs()
    loader = DataLoader(WindowDataset(), batch_size=args.batch_size, shuffle=True)
    fit(Model(args), loader)
