import torch


class LinearSchedule:
    """Precomputed DDPM noise schedule: alpha_bar_t and friends, indexed by integer timestep."""

    def __init__(self, timesteps: int, beta_start: float, beta_end: float):
        self.timesteps = timesteps
        self.betas = torch.linspace(beta_start, beta_end, timesteps)
        self.alphas = 1.0 - self.betas
        self.alpha_bar = torch.cumprod(self.alphas, dim=0)
        self.sqrt_alpha_bar = self.alpha_bar.sqrt()
        self.sqrt_one_minus_alpha_bar = (1.0 - self.alpha_bar).sqrt()

    def sample_timesteps(self, n: int) -> torch.Tensor:
        return torch.randint(0, self.timesteps, (n,))

    def q_sample(self, x0: torch.Tensor, t: torch.Tensor, noise: torch.Tensor) -> torch.Tensor:
        """Diffuse clean images x0 to step t in one shot."""
        a = self.sqrt_alpha_bar[t]
        s = self.sqrt_one_minus_alpha_bar[t]
        return a * x0 + s * noise
