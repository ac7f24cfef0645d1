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
