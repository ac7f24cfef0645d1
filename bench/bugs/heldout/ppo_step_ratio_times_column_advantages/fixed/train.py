"""PPO on a discrete grid-walk task: collect a batch of steps, GAE, then one PPO update per iteration."""
import torch
import torch.nn as nn

from algos.gae import estimate_advantages
from algos.ppo import ppo_step


class DiscretePolicy(nn.Module):
    def __init__(self, state_dim, action_num, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(state_dim, hidden), nn.Tanh(), nn.Linear(hidden, action_num))

    def forward(self, x):
        return torch.softmax(self.net(x), dim=-1)

    def select_action(self, x):
        return torch.multinomial(self(x), 1)

    def get_log_prob(self, x, actions):
        return torch.log(self(x).gather(1, actions.long().unsqueeze(1)).squeeze(1))


def collect(policy, steps=64, size=5):
    states, actions, rewards, masks = [], [], [], []
    pos = torch.zeros(2)
    for t in range(steps):
        s = torch.cat([pos / size, torch.tensor([t % 10 / 10.0])])
        with torch.no_grad():
            a = policy.select_action(s[None])[0, 0]
        pos = (pos + torch.tensor([[0, 1], [1, 0], [0, -1], [-1, 0]], dtype=torch.float32)[a]).clamp(0, size - 1)
        done = bool((pos == size - 1).all()) or t % 10 == 9
        states.append(s)
        actions.append(a)
        rewards.append(1.0 if (pos == size - 1).all() else -0.01)
        masks.append(0.0 if done else 1.0)
        if done:
            pos = torch.zeros(2)
    return torch.stack(states), torch.stack(actions), torch.tensor(rewards), torch.tensor(masks)


def main():
    torch.manual_seed(0)
    policy_net = DiscretePolicy(3, 4)
    value_net = nn.Sequential(nn.Linear(3, 32), nn.Tanh(), nn.Linear(32, 1))
    optimizer_policy = torch.optim.Adam(policy_net.parameters(), lr=3e-4)
    optimizer_value = torch.optim.Adam(value_net.parameters(), lr=3e-4)
    for it in range(3):
        states, actions, rewards, masks = collect(policy_net)
        with torch.no_grad():
            values = value_net(states)
            fixed_log_probs = policy_net.get_log_prob(states, actions)
        advantages, returns = estimate_advantages(rewards, masks, values, gamma=0.99, tau=0.95)
        v_loss, p_loss = ppo_step(policy_net, value_net, optimizer_policy, optimizer_value, 1,
                                  states, actions, returns, advantages, fixed_log_probs, 0.2, 1e-3)
        print(f"iter {it} value {v_loss:.4f} policy {p_loss:.4f}")


if __name__ == "__main__":
    main()
