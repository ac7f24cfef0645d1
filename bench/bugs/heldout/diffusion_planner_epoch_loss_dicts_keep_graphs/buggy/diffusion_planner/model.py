import math

import torch
import torch.nn as nn


class TimestepEmbedder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, dim))

    def forward(self, t):
        half = self.dim // 2
        freqs = torch.exp(-math.log(10000) * torch.arange(half, dtype=torch.float32, device=t.device) / half)
        args = t[:, None].float() * freqs[None]
        return self.mlp(torch.cat([torch.cos(args), torch.sin(args)], dim=-1))


class DiffusionPlanner(nn.Module):
    """Denoises future trajectories of the ego vehicle and its neighbours, conditioned on encoded context."""

    def __init__(self, n_agents=4, horizon=8, context_dim=20, hidden=64):
        super().__init__()
        self.n_agents, self.horizon = n_agents, horizon
        self.context = nn.Sequential(nn.Linear(context_dim, hidden), nn.ReLU())
        self.t_embed = TimestepEmbedder(hidden)
        self.denoiser = nn.Sequential(nn.Linear(horizon * 2 + hidden, hidden), nn.SiLU(), nn.Dropout(0.1),
                                      nn.Linear(hidden, horizon * 2))

    def forward(self, noisy_traj, t, context):
        b = noisy_traj.size(0)
        cond = self.context(context) + self.t_embed(t).unsqueeze(1)
        h = torch.cat([noisy_traj.flatten(2), cond], dim=-1)
        return self.denoiser(h).view(b, self.n_agents, self.horizon, 2)


def diffusion_loss_func(model, inputs, num_steps=100):
    future = inputs["future"]
    t = torch.randint(1, num_steps, (future.size(0),))
    alpha = torch.cos(t.float() / num_steps * math.pi / 2).view(-1, 1, 1, 1)
    noise = torch.randn_like(future)
    noisy = alpha * future + (1 - alpha ** 2).sqrt() * noise
    pred = model(noisy, t, inputs["context"])
    err = (pred - future) ** 2
    return {"ego_planning_loss": err[:, 0].mean(), "neighbor_prediction_loss": err[:, 1:].mean()}
