import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def cosine_beta_schedule(timesteps: int, s: float = 0.008) -> torch.Tensor:
    steps = torch.arange(timesteps + 1, dtype=torch.float64) / timesteps
    f = torch.cos((steps + s) / (1 + s) * math.pi / 2) ** 2
    alphas_cumprod = f / f[0]
    betas = 1 - alphas_cumprod[1:] / alphas_cumprod[:-1]
    return betas.clamp(0, 0.999).float()


def extract(a: torch.Tensor, t: torch.Tensor, x_shape) -> torch.Tensor:
    """Pick a[t] for each image in the batch and shape it to broadcast over (C, H, W)."""
    b = t.shape[0]
    out = a.gather(-1, t)
    return out.reshape(b, *((1,) * (len(x_shape) - 1)))


class Denoiser(nn.Module):
    def __init__(self, channels: int = 3, width: int = 32, timesteps: int = 100):
        super().__init__()
        self.t_embed = nn.Embedding(timesteps, width)
        self.inp = nn.Conv2d(channels, width, 3, padding=1)
        self.mid = nn.Conv2d(width, width, 3, padding=1)
        self.out = nn.Conv2d(width, channels, 3, padding=1)

    def forward(self, x, t):
        h = F.gelu(self.inp(x)) + self.t_embed(t)[:, :, None, None]
        return self.out(F.gelu(self.mid(h)))


class GaussianDiffusion(nn.Module):
    def __init__(self, model: Denoiser, timesteps: int = 100):
        super().__init__()
        self.model = model
        self.num_timesteps = timesteps
        betas = cosine_beta_schedule(timesteps)
        alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.register_buffer("betas", betas)
        self.register_buffer("sqrt_alphas_cumprod", alphas_cumprod.sqrt())
        self.register_buffer("sqrt_one_minus_alphas_cumprod", (1 - alphas_cumprod).sqrt())
        self.register_buffer("sqrt_recip_alphas", (1.0 / (1.0 - betas)).sqrt())

    def q_sample(self, x_start, t, noise):
        return (extract(self.sqrt_alphas_cumprod, t, x_start.shape) * x_start
                + extract(self.sqrt_one_minus_alphas_cumprod, t, x_start.shape) * noise)

    def p_losses(self, x_start):
        t = torch.randint(0, self.num_timesteps, (x_start.shape[0],), device=x_start.device)
        noise = torch.randn_like(x_start)
        x_noisy = self.q_sample(x_start, t, noise)
        return F.mse_loss(self.model(x_noisy, t), noise)

    @torch.no_grad()
    def p_sample(self, x, t_index: int):
        t = torch.full((x.shape[0],), t_index, dtype=torch.long)
        betas_t = extract(self.betas, t, x.shape)
        sqrt_one_minus = extract(self.sqrt_one_minus_alphas_cumprod, t, x.shape)
        mean = extract(self.sqrt_recip_alphas, t, x.shape) * (x - betas_t * self.model(x, t) / sqrt_one_minus)
        if t_index == 0:
            return mean
        return mean + betas_t.sqrt() * torch.randn_like(x)


diffusion = GaussianDiffusion(Denoiser())
optimizer = torch.optim.Adam(diffusion.parameters(), lr=1e-3)
data = torch.rand(64, 3, 16, 16) * 2 - 1

for step in range(20):
    batch = data[torch.randint(0, len(data), (12,))]
    loss = diffusion.p_losses(batch)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 5 == 0:
        print(f"step {step} loss {loss.item():.4f}")

img = torch.randn(4, 3, 16, 16)
for i in reversed(range(0, diffusion.num_timesteps, 10)):
    img = diffusion.p_sample(img, i)
print("sample range", img.min().item(), img.max().item())
