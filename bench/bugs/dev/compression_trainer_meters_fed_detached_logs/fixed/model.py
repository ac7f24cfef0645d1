import torch
import torch.nn as nn


class FactorizedPrior(nn.Module):
    """Analysis/synthesis transforms with a learned per-channel Gaussian prior on the noisy latents."""

    def __init__(self, n=16, m=8):
        super().__init__()
        self.g_a = nn.Sequential(nn.Conv2d(3, n, 5, 2, 2), nn.GELU(), nn.Conv2d(n, m, 5, 2, 2))
        self.g_s = nn.Sequential(nn.ConvTranspose2d(m, n, 5, 2, 2, output_padding=1), nn.GELU(),
                                 nn.ConvTranspose2d(n, 3, 5, 2, 2, output_padding=1))
        self.log_scale = nn.Parameter(torch.zeros(1, m, 1, 1))

    def forward(self, x):
        y = self.g_a(x)
        y_hat = y + torch.empty_like(y).uniform_(-0.5, 0.5)
        prior = torch.distributions.Normal(torch.zeros_like(y_hat), self.log_scale.exp())
        likelihoods = (prior.cdf(y_hat + 0.5) - prior.cdf(y_hat - 0.5)).clamp_min(1e-9)
        return {"x_hat": self.g_s(y_hat), "likelihoods": likelihoods}
