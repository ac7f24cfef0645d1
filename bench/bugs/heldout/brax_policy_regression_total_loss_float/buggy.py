import torch
import torch.nn as nn

OBS_SIZE, ACTION_SIZE = 17, 6


class Agent(nn.Module):
    def __init__(self, obs_size=OBS_SIZE, action_size=ACTION_SIZE, hidden=32):
        super().__init__()
        self.policy = nn.Sequential(nn.Linear(obs_size, hidden), nn.SiLU(), nn.Linear(hidden, 2 * action_size))
        self.running_mean = torch.zeros(obs_size)
        self.running_var = torch.ones(obs_size)

    def normalize(self, obs):
        return (obs - self.running_mean) / torch.sqrt(self.running_var + 1e-5)

    def forward(self, obs):
        loc, scale = self.policy(self.normalize(obs)).chunk(2, dim=-1)
        return loc, nn.functional.softplus(scale) + 1e-3


def expert_rollout(n=64):
    obs = torch.randn(n, OBS_SIZE)
    actions = torch.tanh(obs[:, :ACTION_SIZE] * 0.5)
    return obs, actions


def behaviour_cloning(agent, num_steps=12, lr=3e-3):
    optimizer = torch.optim.Adam(agent.parameters(), lr=lr)
    total_loss = 0
    for i in range(num_steps):
        obs, actions = expert_rollout()
        loc, scale = agent(obs)
        dist = torch.distributions.Normal(loc, scale)
        loss = -dist.log_prob(actions).sum(-1).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total_loss += float(loss)
        if (i + 1) % 4 == 0:
            print(f"step {i + 1}: mean loss {total_loss / (i + 1):.3f}")
    return total_loss / num_steps


if __name__ == "__main__":
    print(behaviour_cloning(Agent()))
