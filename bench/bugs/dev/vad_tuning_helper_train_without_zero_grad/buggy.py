from types import SimpleNamespace

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

config = SimpleNamespace(
    sample_rate=8000, frame_size=256, hidden=32, batch_size=8, learning_rate=5e-4, num_epochs=2, device="cpu",
)


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, value, n=1):
        self.sum += value * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


class FrozenEncoder(nn.Module):
    def __init__(self, frame_size, hidden):
        super().__init__()
        self.frontend = nn.Conv1d(1, hidden, frame_size, stride=frame_size)

    def forward(self, wav):
        return torch.log1p(self.frontend(wav.unsqueeze(1)).abs())


class VADDecoder(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.rnn = nn.LSTM(hidden, hidden, batch_first=True)
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(hidden, 1), nn.Sigmoid())

    def forward(self, feats):
        out, _ = self.rnn(feats.transpose(1, 2))
        return self.head(out).squeeze(-1)


def train(config, loader, jit_model, decoder, criterion, optimizer, device):
    loss_avg = AverageMeter()
    decoder.train()
    for wavs, targets in loader:
        wavs, targets = wavs.to(device), targets.to(device)
        with torch.no_grad():
            feats = jit_model(wavs)
        probs = decoder(feats)
        loss = criterion(probs, targets)
        loss.backward()
        optimizer.step()
        loss_avg.update(loss.item(), wavs.size(0))
    return loss_avg.avg


def make_loader(n):
    frames = 16
    wavs = torch.randn(n, frames * config.frame_size)
    targets = (torch.rand(n, frames) > 0.5).float()
    return DataLoader(TensorDataset(wavs, targets), batch_size=config.batch_size, shuffle=True)


if __name__ == "__main__":
    torch.manual_seed(0)
    jit_model = FrozenEncoder(config.frame_size, config.hidden).eval()
    decoder = VADDecoder(config.hidden)
    optimizer = torch.optim.Adam(decoder.parameters(), lr=config.learning_rate)
    criterion = nn.BCELoss()
    loader = make_loader(32)
    for epoch in range(config.num_epochs):
        print(epoch, round(train(config, loader, jit_model, decoder, criterion, optimizer, config.device), 4))
