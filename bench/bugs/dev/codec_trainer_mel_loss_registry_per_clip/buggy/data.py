import math

import torch


def synthetic_clips(n, clip_len, sample_rate, generator):
    """Sums of two sines with random pitch and phase, shaped (n, 1, clip_len)."""
    t = torch.arange(clip_len) / sample_rate
    freqs = 100 + 900 * torch.rand(n, 2, 1, generator=generator)
    phase = 2 * math.pi * torch.rand(n, 2, 1, generator=generator)
    clips = torch.sin(2 * math.pi * freqs * t + phase).sum(dim=1, keepdim=True)
    return 0.5 * clips


def batches(clips, batch_size):
    for start in range(0, len(clips), batch_size):
        yield clips[start:start + batch_size]
