import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

from model import SeparationLSTM

N_FFT, HOP = 128, 32


class MusdbLike(Dataset):
    """Random excerpts: the magnitude spectrograms of a mixture and of its vocals."""

    def __init__(self, n_tracks=8, samples=2048):
        g = torch.Generator().manual_seed(0)
        self.vocals = torch.randn(n_tracks, samples, generator=g) * 0.3
        self.accomp = torch.randn(n_tracks, samples, generator=g) * 0.3

    def __len__(self):
        return len(self.vocals)

    @staticmethod
    def magnitude(wave):
        spec = torch.stft(wave, N_FFT, HOP, window=torch.hann_window(N_FFT), return_complex=True)
        return spec.abs().t()

    def __getitem__(self, i):
        return self.magnitude(self.vocals[i] + self.accomp[i]), self.magnitude(self.vocals[i])


def train_epoch(model: SeparationLSTM, loader: DataLoader, optimizer: torch.optim.Optimizer) -> float:
    model.train()
    total = 0.0
    for mix, vocals in loader:
        estimate = model(mix)
        loss = F.mse_loss(estimate, vocals)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)


def main(epochs: int = 2) -> None:
    model = SeparationLSTM()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(MusdbLike(), batch_size=4, shuffle=True)
    for epoch in range(epochs):
        print(epoch, train_epoch(model, loader, optimizer))


if __name__ == "__main__":
    main()
