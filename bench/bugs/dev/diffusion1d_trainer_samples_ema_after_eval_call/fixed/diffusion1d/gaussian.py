import torch
import torch.nn.functional as F


def linear_beta_schedule(timesteps):
    return torch.linspace(1e-4, 0.02, timesteps)


class GaussianDiffusion1D:
    def __init__(self, timesteps=20):
        self.num_timesteps = timesteps
        self.betas = linear_beta_schedule(timesteps)
        self.alphas_cumprod = torch.cumprod(1.0 - self.betas, dim=0)

    def p_losses(self, model, x_start):
        t = torch.randint(0, self.num_timesteps, (x_start.shape[0],))
        noise = torch.randn_like(x_start)
        ac = self.alphas_cumprod[t][:, None, None]
        x_noisy = ac.sqrt() * x_start + (1 - ac).sqrt() * noise
        return F.mse_loss(model(x_noisy, t), noise)


@torch.inference_mode()
def sample(model, diffusion, batch_size, seq_len, channels=1):
    x = torch.randn(batch_size, channels, seq_len)
    for i in reversed(range(diffusion.num_timesteps)):
        t = torch.full((batch_size,), i, dtype=torch.long)
        pred_noise = model(x, t)
        beta, ac = diffusion.betas[i], diffusion.alphas_cumprod[i]
        x = (x - beta / (1 - ac).sqrt() * pred_noise) / (1 - beta).sqrt()
        if i > 0:
            x = x + beta.sqrt() * torch.randn_like(x)
    return x.clamp(-1.0, 1.0)
