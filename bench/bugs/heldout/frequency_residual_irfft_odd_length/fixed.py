import torch
from torch import nn


class FrequencyRefiner(nn.Module):
    def __init__(self, pred_len: int) -> None:
        super().__init__()
        bins = pred_len // 2 + 1
        self.mix = nn.Linear(2 * bins, bins * 2)

    def forward(self, y_hat: torch.Tensor) -> torch.Tensor:
        spec = torch.fft.rfft(y_hat, dim=-1)
        mixed = self.mix(torch.cat([spec.real, spec.imag], dim=-1))
        real, imag = mixed.chunk(2, dim=-1)
        return y_hat + torch.fft.irfft(torch.complex(real, imag), n=y_hat.size(-1), dim=-1)


refiner = FrequencyRefiner(pred_len=25)
forecast = torch.randn(4, 3, 25)
print(refiner(forecast).shape)
