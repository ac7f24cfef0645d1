import torch
import torch.nn as nn


def init_(module, gain=0.01):
    nn.init.orthogonal_(module.weight, gain=gain)
    nn.init.zeros_(module.bias)
    return module


class MLPBase(nn.Module):
    def __init__(self, input_dim, hidden_size, layer_n=2):
        super().__init__()
        layers = [nn.Linear(input_dim, hidden_size), nn.ReLU()]
        for _ in range(layer_n - 1):
            layers += [nn.Linear(hidden_size, hidden_size), nn.ReLU()]
        self.mlp = nn.Sequential(*layers)

    def forward(self, x):
        return self.mlp(x)


class MADDPGCritic(nn.Module):
    """Centralised critic: all agents' observations and actions in, one Q value per head out."""

    def __init__(self, args, central_obs_dim, central_act_dim, num_q_outs, device="cpu"):
        super().__init__()
        self.hidden_size = args["hidden_size"]
        self.mlp = MLPBase(central_obs_dim + central_act_dim, self.hidden_size)
        self.q_outs = [init_(nn.Linear(self.hidden_size, 1)) for _ in range(num_q_outs)]
        self.to(device)

    def forward(self, central_obs, central_act):
        x = self.mlp(torch.cat([central_obs, central_act], dim=-1))
        return [q_out(x) for q_out in self.q_outs]
