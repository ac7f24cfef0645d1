import numpy as np


def mel_filterbank(n_mels: int, n_fft: int, sample_rate: int) -> np.ndarray:
    """Triangular filters spaced on the mel scale, (n_mels, n_fft // 2 + 1)."""
    def hz_to_mel(f):
        return 2595.0 * np.log10(1.0 + f / 700.0)

    def mel_to_hz(m):
        return 700.0 * (10.0 ** (m / 2595.0) - 1.0)

    n_bins = n_fft // 2 + 1
    mels = np.linspace(hz_to_mel(0.0), hz_to_mel(sample_rate / 2), n_mels + 2)
    bins = np.floor((n_fft + 1) * mel_to_hz(mels) / sample_rate).astype(int)
    fb = np.zeros((n_mels, n_bins), dtype=np.float32)
    for m in range(1, n_mels + 1):
        left, centre, right = bins[m - 1], bins[m], bins[m + 1]
        for k in range(left, centre):
            fb[m - 1, k] = (k - left) / max(centre - left, 1)
        for k in range(centre, right):
            fb[m - 1, k] = (right - k) / max(right - centre, 1)
    return fb


class LogMel:
    def __init__(self, sample_rate: int = 8000, n_fft: int = 256, hop: int = 80, n_mels: int = 40):
        self.n_fft, self.hop = n_fft, hop
        self.window = np.hanning(n_fft).astype(np.float32)
        self.fb = mel_filterbank(n_mels, n_fft, sample_rate)

    def __call__(self, wav: np.ndarray) -> np.ndarray:
        wav = np.pad(wav, (self.n_fft // 2, self.n_fft // 2), mode="reflect")
        n_frames = 1 + (len(wav) - self.n_fft) // self.hop
        idx = np.arange(self.n_fft)[None, :] + self.hop * np.arange(n_frames)[:, None]
        frames = wav[idx] * self.window
        power = np.abs(np.fft.rfft(frames, n=self.n_fft)) ** 2
        return np.log(power @ self.fb.T + 1e-6).astype(np.float32)
