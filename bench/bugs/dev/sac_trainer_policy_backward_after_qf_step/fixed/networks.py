import torch
import torch.nn as nn
from torch.distributions import Normal


class FlattenMlp(nn.Module):
    def __init__(self, input_size, output_size, hidden_sizes=(64, 64)):
        super().__init__()
        layers, in_size = [], input_size
        for h in hidden_sizes:
            layers += [nn.Linear(in_size, h), nn.ReLU()]
            in_size = h
        self.body = nn.Sequential(*layers)
        self.last_fc = nn.Linear(in_size, output_size)

    def forward(self, *inputs):
        return self.last_fc(self.body(torch.cat(inputs, dim=1)))


class TanhGaussianPolicy(nn.Module):
    def __init__(self, obs_dim, action_dim, hidden_sizes=(64, 64)):
        super().__init__()
        self.trunk = FlattenMlp(obs_dim, 2 * action_dim, hidden_sizes)

    def forward(self, obs):
        mean, log_std = self.trunk(obs).chunk(2, dim=-1)
        std = log_std.clamp(-20, 2).exp()
        pre_tanh = Normal(mean, std).rsample()
        action = torch.tanh(pre_tanh)
        log_prob = Normal(mean, std).log_prob(pre_tanh) - torch.log(1 - action.pow(2) + 1e-6)
        return action, log_prob.sum(dim=-1, keepdim=True)
