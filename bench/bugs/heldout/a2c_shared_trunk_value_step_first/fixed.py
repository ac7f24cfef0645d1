import torch
from torch import nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, obs_dim: int = 6, n_actions: int = 3) -> None:
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh())
        self.policy = nn.Linear(64, n_actions)
        self.value = nn.Linear(64, 1)

    def forward(self, obs):
        h = self.trunk(obs)
        return Categorical(logits=self.policy(h)), self.value(h).squeeze(-1)


net = ActorCritic()
critic_opt = torch.optim.RMSprop(list(net.trunk.parameters()) + list(net.value.parameters()), lr=7e-4)
actor_opt = torch.optim.RMSprop(net.policy.parameters(), lr=7e-4)

for update in range(2):
    obs = torch.randn(20, 6)
    returns = torch.randn(20)
    dist, values = net(obs)
    actions = dist.sample()
    advantages = returns - values
    value_loss = advantages.pow(2).mean()
    policy_loss = -(dist.log_prob(actions) * advantages.detach()).mean() - 0.01 * dist.entropy().mean()

    critic_opt.zero_grad()
    actor_opt.zero_grad()
    value_loss.backward(retain_graph=True)
    policy_loss.backward()
    critic_opt.step()
    actor_opt.step()
    print(update, value_loss.item(), policy_loss.item())
