import torch
import torch.nn.functional as F


class GaussianDiffusion:
    def __init__(self, timesteps=50, beta_start=1e-4, beta_end=0.02):
        self.timesteps = timesteps
        self.betas = torch.linspace(beta_start, beta_end, timesteps)
        self.alphas = 1.0 - self.betas
        self.alphas_cumprod = torch.cumprod(self.alphas, dim=0)

    def q_sample(self, x0, t, noise):
        a = self.alphas_cumprod[t].sqrt()[:, None]
        s = (1 - self.alphas_cumprod[t]).sqrt()[:, None]
        return a * x0 + s * noise

    def training_loss(self, model, x0):
        t = torch.randint(0, self.timesteps, (x0.shape[0],))
        noise = torch.randn_like(x0)
        return F.mse_loss(model(self.q_sample(x0, t, noise), t), noise)
