import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ActorNetwork(nn.Module):
    def __init__(self, input_dims, n_actions, fc_dims=32, max_action=1.0):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(input_dims, fc_dims), nn.ReLU())
        self.mu = nn.Linear(fc_dims, n_actions)
        self.sigma = nn.Linear(fc_dims, n_actions)
        self.max_action = max_action
        self.optimizer = torch.optim.Adam(self.parameters(), lr=3e-4)

    def sample_normal(self, state):
        h = self.fc(state)
        mu, sigma = self.mu(h), self.sigma(h).clamp(1e-6, 1.0)
        dist = torch.distributions.Normal(mu, sigma)
        raw = dist.rsample()
        action = torch.tanh(raw) * self.max_action
        log_probs = (dist.log_prob(raw) - torch.log(1 - torch.tanh(raw).pow(2) + 1e-6)).sum(1, keepdim=True)
        return action, log_probs


class CriticNetwork(nn.Module):
    def __init__(self, input_dims, n_actions, fc_dims=32):
        super().__init__()
        self.q = nn.Sequential(nn.Linear(input_dims + n_actions, fc_dims), nn.ReLU(), nn.Linear(fc_dims, 1))
        self.optimizer = torch.optim.Adam(self.parameters(), lr=3e-4)

    def forward(self, state, action):
        return self.q(torch.cat([state, action], dim=1))


class Agent:
    def __init__(self, input_dims=4, n_actions=2, gamma=0.99, batch_size=32):
        self.gamma = gamma
        self.batch_size = batch_size
        self.actor = ActorNetwork(input_dims, n_actions)
        self.critic = CriticNetwork(input_dims, n_actions)

    def learn(self, state, action, reward, state_, done):
        with torch.no_grad():
            next_actions, next_log_probs = self.actor.sample_normal(state_)
            q_target = reward + self.gamma * (1 - done) * (self.critic(state_, next_actions) - next_log_probs)
        q_old_policy = self.critic(state, action)
        critic_loss = 0.5 * F.mse_loss(q_old_policy, q_target)
        self.critic.optimizer.zero_grad()
        critic_loss.backward(retain_graph=True)
        self.critic.optimizer.step()

        actions, log_probs = self.actor.sample_normal(state)
        q_new_policy = self.critic(state, actions)
        actor_loss = (log_probs - q_new_policy).mean()
        self.actor.optimizer.zero_grad()
        actor_loss.backward()
        self.actor.optimizer.step()
        return critic_loss.item(), actor_loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    np.random.seed(0)
    agent = Agent()
    for i in range(3):
        s = torch.tensor(np.random.randn(32, 4), dtype=torch.float32)
        a = torch.tensor(np.random.uniform(-1, 1, (32, 2)), dtype=torch.float32)
        r = torch.tensor(np.random.randn(32, 1), dtype=torch.float32)
        print(i, agent.learn(s, a, r, s + 0.1, torch.zeros(32, 1)))
