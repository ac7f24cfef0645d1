"""Synthetic speech-commands clips and their MFCC features."""
import math

import torch
from torch.utils.data import Dataset

SAMPLE_RATE = 8000
N_MFCC = 40
HOP = 128
LABELS = ["yes", "no", "up", "down", "left", "right"]


def mfcc(wave: torch.Tensor, n_mfcc: int = N_MFCC, n_fft: int = 256, hop: int = HOP) -> torch.Tensor:
    """A small MFCC: power spectrogram, log, then a DCT over the frequency bins. Returns (n_mfcc, frames)."""
    spec = torch.stft(wave, n_fft, hop_length=hop, window=torch.hann_window(n_fft), return_complex=True)
    logspec = torch.log(spec.abs() ** 2 + 1e-6)
    bins = logspec.shape[0]
    k = torch.arange(n_mfcc)[:, None]
    n = torch.arange(bins)[None, :]
    dct = torch.cos(math.pi / bins * (n + 0.5) * k)
    return dct @ logspec


class SpeechCommands(Dataset):
    def __init__(self, n_clips: int = 48, seconds: float = 1.0, seed: int = 0):
        gen = torch.Generator().manual_seed(seed)
        self.labels = torch.randint(0, len(LABELS), (n_clips,), generator=gen)
        t = torch.arange(int(SAMPLE_RATE * seconds)) / SAMPLE_RATE
        freqs = 300.0 + 150.0 * self.labels.float()
        self.waves = torch.sin(2 * math.pi * freqs[:, None] * t) + 0.05 * torch.randn(n_clips, t.numel(), generator=gen)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        return mfcc(self.waves[idx]), self.labels[idx]
