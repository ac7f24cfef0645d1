import argparse

import torch

from nets import Actor, Critic
from sac import SACPolicy


class ReplayBuffer:
    def __init__(self, obs_dim, act_dim, size=512, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.obs = torch.randn(size, obs_dim, generator=g)
        self.act = torch.rand(size, act_dim, generator=g) * 2 - 1
        self.rew = torch.randn(size, 1, generator=g)
        self.obs_next = self.obs + 0.1 * torch.randn(size, obs_dim, generator=g)
        self.done = (torch.rand(size, 1, generator=g) < 0.05).float()

    def sample(self, batch_size):
        idx = torch.randint(0, len(self.obs), (batch_size,))
        return self.obs[idx], self.act[idx], self.rew[idx], self.obs_next[idx], self.done[idx]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--obs-dim", type=int, default=17)
    parser.add_argument("--act-dim", type=int, default=6)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--updates", type=int, default=4)
    args = parser.parse_args([])
    torch.manual_seed(0)

    policy = SACPolicy(Actor(args.obs_dim, args.act_dim), Critic(args.obs_dim, args.act_dim), Critic(args.obs_dim, args.act_dim))
    buffer = ReplayBuffer(args.obs_dim, args.act_dim)
    for i in range(args.updates):
        print(i, policy.learn(buffer.sample(args.batch_size)))


if __name__ == "__main__":
    main()
