import torch
import torch.nn as nn


def mlp(sizes, act=nn.ReLU):
    layers = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(act())
    return nn.Sequential(*layers)


class QFunction(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=(32, 32)):
        super().__init__()
        self.net = mlp([obs_dim + act_dim, *hidden, 1])

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], dim=-1))


class TanhGaussianPolicy(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=(32, 32)):
        super().__init__()
        self.body = mlp([obs_dim, *hidden, 2 * act_dim])

    def forward(self, obs):
        mean, log_std = self.body(obs).chunk(2, dim=-1)
        std = log_std.clamp(-5, 2).exp()
        pre_tanh = mean + std * torch.randn_like(mean)
        action = torch.tanh(pre_tanh)
        log_prob = (-0.5 * ((pre_tanh - mean) / std) ** 2 - std.log()).sum(-1, keepdim=True)
        log_prob = log_prob - torch.log(1 - action.pow(2) + 1e-6).sum(-1, keepdim=True)
        return action, log_prob
