import torch


@torch.no_grad()
def ancestral_sample(denoise_fn, diffusion, n, data_dim=2, generator=None):
    """DDPM ancestral sampling; denoise_fn(x, t) returns the predicted noise."""
    x = torch.randn(n, data_dim, generator=generator)
    for step in reversed(range(diffusion.timesteps)):
        t = torch.full((n,), step, dtype=torch.long)
        eps = denoise_fn(x, t)
        alpha, alpha_bar = diffusion.alphas[step], diffusion.alphas_cumprod[step]
        mean = (x - (1 - alpha) / (1 - alpha_bar).sqrt() * eps) / alpha.sqrt()
        if step > 0:
            x = mean + diffusion.betas[step].sqrt() * torch.randn(x.shape, generator=generator)
        else:
            x = mean
    return x
