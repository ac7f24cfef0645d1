"""torch.fft: the sizes each transform gives (real transforms keep n // 2 + 1 bins and invert to 2 * (m - 1) samples
by default), the frequency helpers, and a spectrum multiplied by weights sized for the time axis."""

from __future__ import annotations

from tests.shapes.probe import probe


def test_one_dim_transforms() -> None:
    assert probe('''
        import torch
        def f(signal: int):
            audio = torch.randn(16, 2, 4000)
            probe(torch.fft.rfft(audio))
            probe(torch.fft.fft(audio, n=8000))
            probe(torch.fft.rfft(audio, dim=1))
            probe(torch.fft.irfft(torch.fft.rfft(audio), n=4000))
            probe(torch.fft.irfft(torch.randn(3, 65, dtype=torch.cfloat)))
            probe(torch.fft.rfft(torch.randn(3, signal)))
            probe_dtype(torch.fft.fft(audio))
            probe_dtype(torch.fft.irfft(audio))
    ''') == ["(16, 2, 2001)", "(16, 2, 8000)", "(16, 2, 4000)", "(16, 2, 4000)", "(3, 128)",
             "(3, signal // 2 + 1)", "complex", "float"]


def test_many_dim_transforms_and_frequencies() -> None:
    assert probe('''
        import torch
        def f(x):
            image = torch.randn(4, 3, 64, 48)
            probe(torch.fft.rfft2(image))
            probe(torch.fft.fft2(image, s=(32, 32)))
            probe(torch.fft.rfftn(image, dim=(1, 2)))
            probe(torch.fft.irfft2(torch.fft.rfft2(image), s=(64, 48)))
            probe(torch.fft.fftn(image))
            probe(torch.fft.fftshift(image))
            probe(torch.fft.rfftfreq(4000))
            probe(torch.fft.fftfreq(64, d=0.5))
            probe(torch.fft.fftn(x))
            probe(torch.fft.rfft(image, dim=x))
    ''') == ["(4, 3, 64, 25)", "(4, 3, 32, 32)", "(4, 3, 33, 48)", "(4, 3, 64, 48)", "(4, 3, 64, 48)",
             "(4, 3, 64, 48)", "(2001,)", "(64,)", None, None]


def test_a_spectrum_against_weights_sized_for_the_time_axis() -> None:
    assert probe('''
        import torch
        x = torch.randn(8, 120, 5)
        w = torch.randn(120, 5, dtype=torch.cfloat)
        probe_conflict(torch.fft.rfft(x, dim=1) * w)
        probe_conflict(torch.fft.fft(x, dim=1) * w)
    ''') == ["`torch.fft.rfft(x, dim=1) * w`: torch.fft.rfft(x, dim=1) is (8, 61, 5) and w is (120, 5): 61 and 120 "
             "don't broadcast", None]


def test_stft_frames_and_istft_samples() -> None:
    assert probe('''
        import torch
        def f(signal, n_fft: int, return_complex):
            audio = torch.randn(2, 16001)
            window = torch.hann_window(512)
            spec = torch.stft(audio, 512, hop_length=128, window=window, return_complex=True)
            probe(spec)
            probe_dtype(spec)
            probe(audio[0].stft(512, center=False, return_complex=True))
            probe(torch.stft(audio, 400, 160, window=torch.hann_window(400), onesided=False, return_complex=True))
            probe(torch.stft(audio, 512, return_complex=False))
            probe(torch.istft(spec, 512, hop_length=128, window=window))
            probe(torch.istft(spec, 512, hop_length=128, window=window, length=audio.shape[-1]))
            probe(torch.stft(audio, 512))
            probe(torch.stft(audio, 512, return_complex=return_complex))
            probe(torch.stft(signal, 512, return_complex=True))
            probe(torch.stft(audio, 512, window=torch.randn(512, dtype=torch.cfloat), return_complex=True))
            probe(torch.stft(audio, n_fft, return_complex=True))
    ''') == ["(2, 257, 126)", "complex", "(257, 122)", "(2, 400, 101)", "(2, 257, 126, 2)", "(2, 16000)",
             "(2, 16001)", None, None, None, None, "(2, n_fft // 2 + 1, 16001 // n_fft // 4 + 1)"]


def test_complex_from_parts_and_windows() -> None:
    assert probe('''
        import torch
        real, imag = torch.randn(4, 1, 65), torch.randn(65)
        probe(torch.complex(real, imag))
        probe_dtype(torch.complex(real, imag))
        probe(torch.polar(torch.ones(3, 8), torch.zeros(8)))
        probe(torch.hamming_window(400))
    ''') == ["(4, 1, 65)", "complex", "(3, 8)", "(400,)"]
