import torch
import torch.nn as nn


def mlp(sizes, activation=nn.Tanh, output_activation=nn.Identity):
    layers = []
    for j in range(len(sizes) - 1):
        act = activation if j < len(sizes) - 2 else output_activation
        layers += [nn.Linear(sizes[j], sizes[j + 1]), act()]
    return nn.Sequential(*layers)


class LanderEnvSpec:
    obs_dim = 8
    act_dim = 4


def collect_observations(n):
    """x, y, vx, vy, angle, angular velocity and the two leg-contact flags."""
    return torch.randn(n, 8)


spec = LanderEnvSpec()
logits_net = mlp([spec.obs_dim, 64, 64, spec.act_dim])
obs = collect_observations(5)
dist = torch.distributions.Categorical(logits=logits_net(obs))
actions = dist.sample()
print(actions.tolist())
