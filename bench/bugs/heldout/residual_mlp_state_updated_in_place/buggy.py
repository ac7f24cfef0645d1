import torch
import torch.nn as nn


class ResidualTanhMLP(nn.Module):
    """Value network for a small control task: a stack of tanh residual updates."""

    def __init__(self, obs_dim=8, width=32, depth=3):
        super().__init__()
        self.inp = nn.Linear(obs_dim, width)
        self.blocks = nn.ModuleList(nn.Linear(width, width) for _ in range(depth))
        self.value = nn.Linear(width, 1)

    def forward(self, obs):
        state = self.inp(obs)
        for block in self.blocks:
            state += torch.tanh(block(state))
        return self.value(state).squeeze(-1)


def td_targets(rewards, next_values, gamma=0.99):
    return rewards + gamma * next_values


def fit_value(net, batches, lr=1e-3):
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    for obs, rewards, next_obs in batches:
        with torch.no_grad():
            target = td_targets(rewards, net(next_obs))
        loss = nn.functional.mse_loss(net(obs), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    batches = [(torch.randn(16, 8), torch.randn(16), torch.randn(16, 8)) for _ in range(3)]
    print(fit_value(ResidualTanhMLP(), batches))
