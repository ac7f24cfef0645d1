import numpy as np


def hz_to_mel(f):
    return 2595.0 * np.log10(1.0 + f / 700.0)


def mel_to_hz(m):
    return 700.0 * (10 ** (m / 2595.0) - 1.0)


def mel_filterbank(sr: int, n_fft: int, n_mels: int) -> np.ndarray:
    mels = np.linspace(hz_to_mel(0.0), hz_to_mel(sr / 2), n_mels + 2)
    bins = np.floor((n_fft + 1) * mel_to_hz(mels) / sr).astype(int)
    fb = np.zeros((n_mels, n_fft // 2 + 1), dtype=np.float32)
    for m in range(1, n_mels + 1):
        lo, mid, hi = bins[m - 1], bins[m], bins[m + 1]
        for k in range(lo, mid):
            fb[m - 1, k] = (k - lo) / max(mid - lo, 1)
        for k in range(mid, hi):
            fb[m - 1, k] = (hi - k) / max(hi - mid, 1)
    return fb


def dct_matrix(n_out: int, n_in: int) -> np.ndarray:
    n = np.arange(n_in)
    k = np.arange(n_out)[:, None]
    return (np.cos(np.pi / n_in * (n + 0.5) * k) * np.sqrt(2.0 / n_in)).astype(np.float32)


class Featurizer:
    def __init__(self, sample_rate, n_fft, hop_length, n_mels, n_mfcc, method="mfcc"):
        self.n_fft, self.hop, self.method = n_fft, hop_length, method
        self.window = np.hanning(n_fft).astype(np.float32)
        self.fb = mel_filterbank(sample_rate, n_fft, n_mels)
        self.dct = dct_matrix(n_mfcc, n_mels)

    def __call__(self, wave: np.ndarray) -> np.ndarray:
        """(samples,) -> (features, frames)"""
        starts = range(0, len(wave) - self.n_fft + 1, self.hop)
        frames = np.stack([wave[s:s + self.n_fft] * self.window for s in starts])
        power = np.abs(np.fft.rfft(frames, axis=1)) ** 2
        logmel = np.log(power @ self.fb.T + 1e-6)
        if self.method == "fbank":
            return logmel.T.astype(np.float32)
        return (logmel @ self.dct.T).T.astype(np.float32)
