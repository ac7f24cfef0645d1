"""Reconstruction objectives of the codec, looked up by name from the config."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class WaveformL1(nn.Module):
    def forward(self, recon, target):
        return F.l1_loss(recon, target)


class MultiScaleMelLoss(nn.Module):
    """L1 between log-magnitude spectrograms at a few resolutions, kept per clip so the logger can
    report the worst clip of the batch."""

    def __init__(self, scales=(32, 64), eps=1e-5):
        super().__init__()
        self.scales = scales
        self.eps = eps

    def log_mag(self, audio, n_fft):
        window = torch.hann_window(n_fft, device=audio.device)
        spec = torch.stft(audio.squeeze(1), n_fft, hop_length=n_fft // 4, window=window, return_complex=True)
        return torch.log(spec.abs().clamp_min(self.eps))

    def forward(self, recon, target):
        per_clip = 0.0
        for n_fft in self.scales:
            diff = self.log_mag(recon, n_fft) - self.log_mag(target, n_fft)
            per_clip = per_clip + diff.abs().mean(dim=(1, 2))
        return per_clip / len(self.scales)


LOSSES = {
    "waveform": WaveformL1,
    "mel": MultiScaleMelLoss,
}


def build_losses(weights):
    return {name: LOSSES[name]() for name in weights}
