import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

N_MELS = 20
FRAMES = 50


class MelPairs(Dataset):
    """(text-side features, mel spectrogram) pairs; mels are stored (n_mels, frames) like torchaudio returns them."""

    def __init__(self, n: int = 12):
        g = torch.Generator().manual_seed(0)
        self.enc = torch.randn(n, FRAMES, 32, generator=g)
        self.mels = torch.randn(n, N_MELS, FRAMES, generator=g)

    def __len__(self):
        return len(self.mels)

    def __getitem__(self, i):
        return self.enc[i], self.mels[i]


class MelDecoder(nn.Module):
    def __init__(self, d_in: int = 32, hidden: int = 64, n_mels: int = N_MELS):
        super().__init__()
        self.prenet = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Dropout(0.1))
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, n_mels)

    def forward(self, enc: torch.Tensor) -> torch.Tensor:
        h, _ = self.rnn(self.prenet(enc))
        return self.proj(h)


def train(model: MelDecoder, loader: DataLoader, epochs: int = 2) -> None:
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for enc, mel in loader:
            pred = model(enc)
            loss = F.l1_loss(pred, mel)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch}: l1 {total / len(loader):.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train(MelDecoder(), DataLoader(MelPairs(), batch_size=4, shuffle=True))
