"""Music-genre tagging from log-mel frames computed in numpy (one clip -> (frames, n_mels))."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

SR = 8000
N_FFT = 512
HOP = 256
N_MELS = 40
GENRES = ["blues", "classical", "metal", "reggae"]

rng = np.random.default_rng(0)
torch.manual_seed(0)


def frame_signal(wave: np.ndarray) -> np.ndarray:
    n_frames = 1 + (len(wave) - N_FFT) // HOP
    idx = np.arange(N_FFT)[None, :] + HOP * np.arange(n_frames)[:, None]
    return wave[idx] * np.hanning(N_FFT)


def log_mel(wave: np.ndarray, fb: np.ndarray) -> np.ndarray:
    spec = np.abs(np.fft.rfft(frame_signal(wave), axis=-1)) ** 2      # (frames, bins)
    return np.log1p(spec @ fb).astype(np.float32)                    # (frames, n_mels)


def triangular_fb(n_bins: int, n_mels: int) -> np.ndarray:
    centers = np.linspace(0, n_bins - 1, n_mels + 2)
    bins = np.arange(n_bins)[:, None]
    left, mid, right = centers[:-2], centers[1:-1], centers[2:]
    up = (bins - left) / (mid - left)
    down = (right - bins) / (right - mid)
    return np.clip(np.minimum(up, down), 0, None)


fb = triangular_fb(N_FFT // 2 + 1, N_MELS)
clips, labels = [], []
for i in range(48):
    g = i % len(GENRES)
    t = np.arange(SR * 2) / SR
    wave = np.sin(2 * np.pi * (110 * (g + 1)) * t) + 0.5 * rng.normal(size=t.shape) * (g / 3)
    clips.append(log_mel(wave, fb))
    labels.append(g)

features = np.stack(clips)                                           # (N, frames, n_mels)
features = (features - features.mean(axis=(0, 1))) / (features.std(axis=(0, 1)) + 1e-6)
x = torch.from_numpy(np.ascontiguousarray(features.transpose(0, 2, 1)))  # (N, n_mels, frames)
y = torch.tensor(labels)

model = nn.Sequential(
    nn.Conv1d(N_MELS, 64, kernel_size=3, padding=1), nn.BatchNorm1d(64), nn.ReLU(), nn.MaxPool1d(2),
    nn.Conv1d(64, 64, kernel_size=3, padding=1), nn.BatchNorm1d(64), nn.ReLU(),
    nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(64, len(GENRES)),
)
loader = DataLoader(TensorDataset(x, y), batch_size=12, shuffle=True)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()

for epoch in range(3):
    correct = 0
    for xb, yb in loader:
        logits = model(xb)
        loss = criterion(logits, yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        correct += (logits.argmax(1) == yb).sum().item()
    print(f"epoch {epoch} loss {loss.item():.3f} acc {correct / len(y):.2f}")
