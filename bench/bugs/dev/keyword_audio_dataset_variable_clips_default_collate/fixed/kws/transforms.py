import torch


class PeakNormalize:
    def __call__(self, wave: torch.Tensor) -> torch.Tensor:
        return wave / wave.abs().max().clamp_min(1e-6)


class RandomGain:
    def __init__(self, low: float = 0.8, high: float = 1.2):
        self.low, self.high = low, high

    def __call__(self, wave: torch.Tensor) -> torch.Tensor:
        return wave * torch.empty(1).uniform_(self.low, self.high)


class Compose:
    def __init__(self, *steps):
        self.steps = steps

    def __call__(self, wave):
        for step in self.steps:
            wave = step(wave)
        return wave
