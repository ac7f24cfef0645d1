import torch
import torch.nn as nn
import torch.nn.functional as F


class Actor(nn.Module):
    def __init__(self, state_dim=8, action_dim=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(state_dim, 64), nn.ReLU(), nn.Linear(64, action_dim), nn.Tanh())

    def forward(self, state):
        return self.net(state)


class Critic(nn.Module):
    def __init__(self, state_dim=8, action_dim=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(state_dim + action_dim, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, state, action):
        return self.net(torch.cat([state, action], dim=1))


actor, critic = Actor(), Critic()
actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-4)
critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
gamma = 0.99

for update in range(2):
    state, action = torch.randn(32, 8), torch.rand(32, 2) * 2 - 1
    reward, next_state = torch.randn(32, 1), torch.randn(32, 8)
    with torch.no_grad():
        target_q = reward + gamma * critic(next_state, actor(next_state))
    critic_loss = F.mse_loss(critic(state, action), target_q)
    actor_loss = -critic(state, actor(state)).mean()

    critic_opt.zero_grad()
    critic_loss.backward()
    critic_opt.step()

    actor_opt.zero_grad()
    actor_loss.backward()
    actor_opt.step()
    print(update, critic_loss.item(), actor_loss.item())
