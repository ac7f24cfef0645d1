import math

import torch
import torch.nn as nn


class RateDistortionLoss(nn.Module):
    """lambda * 255^2 * MSE + bits per pixel of the latents."""

    def __init__(self, lmbda=1e-2):
        super().__init__()
        self.mse = nn.MSELoss()
        self.lmbda = lmbda

    def forward(self, output, target):
        n, _, h, w = target.size()
        num_pixels = n * h * w
        out = {
            "bpp_loss": torch.log(output["likelihoods"]).sum() / (-math.log(2) * num_pixels),
            "mse_loss": self.mse(output["x_hat"], target),
        }
        out["loss"] = self.lmbda * 255 ** 2 * out["mse_loss"] + out["bpp_loss"]
        out["logs"] = {name: value.detach() for name, value in out.items()}
        return out
