from dataclasses import dataclass, field

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class KWSConfig:
    n_samples: int = 400
    channels: list = field(default_factory=lambda: [1, 16, 32])
    kernel_size: int = 5
    stride: int = 2
    n_keywords: int = 10


class KeywordSpotter(nn.Module):
    def __init__(self, cfg: KWSConfig):
        super().__init__()
        convs = []
        for c_in, c_out in zip(cfg.channels[:-1], cfg.channels[1:]):
            convs += [nn.Conv1d(c_in, c_out, cfg.kernel_size, stride=cfg.stride), nn.BatchNorm1d(c_out), nn.ReLU()]
        self.features = nn.Sequential(*convs)
        downsample = cfg.stride ** (len(cfg.channels) - 1)
        self.fc = nn.Linear(cfg.channels[-1] * (cfg.n_samples // downsample), cfg.n_keywords)

    def forward(self, wav):
        x = self.features(wav.unsqueeze(1))
        return self.fc(x.flatten(1))


def train(cfg: KWSConfig, epochs: int = 1):
    wavs = torch.randn(8, cfg.n_samples)
    labels = torch.randint(0, cfg.n_keywords, (8,))
    loader = DataLoader(TensorDataset(wavs, labels), batch_size=4, shuffle=True)
    model = KeywordSpotter(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(epochs):
        for wav, label in loader:
            loss = nn.functional.cross_entropy(model(wav), label)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    print(train(KWSConfig()))
