import torch
import torch.nn as nn


class DurationPredictor(nn.Module):
    """Predicts log-durations of phonemes for a FastSpeech-like TTS front end."""

    def __init__(self, n_phonemes=40, dim=32):
        super().__init__()
        self.embed = nn.Embedding(n_phonemes, dim)
        self.conv = nn.Sequential(
            nn.Conv1d(dim, dim, 3, padding=1), nn.ReLU(), nn.Dropout(0.1),
            nn.Conv1d(dim, dim, 3, padding=1), nn.ReLU(),
        )
        self.proj = nn.Linear(dim, 1)

    def forward(self, phonemes):
        h = self.embed(phonemes).transpose(1, 2)
        h = self.conv(h).transpose(1, 2)
        return self.proj(h).squeeze(-1)
