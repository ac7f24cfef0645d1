"""A2C on a toy paddle game (a stand-in for the Atari environment); n-step returns, shared trunk."""
import collections
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

GAMMA = 0.99
REWARD_STEPS = 4
ENTROPY_BETA = 0.01

Experience = collections.namedtuple("Experience", "state action reward last_state")


class PaddleEnv:
    """Ball falls on a 1-d court; move the paddle left/stay/right to catch it."""

    def __init__(self, width=8, seed=0):
        self.width = width
        self.rng = np.random.default_rng(seed)
        self.reset()

    def reset(self):
        self.ball, self.height, self.paddle = self.rng.integers(self.width), 5, self.width // 2
        return self.obs()

    def obs(self):
        o = np.zeros(self.width * 2 + 1, dtype=np.float32)
        o[self.ball] = 1.0
        o[self.width + self.paddle] = 1.0
        o[-1] = self.height / 5
        return o

    def step(self, action):
        self.paddle = int(np.clip(self.paddle + action - 1, 0, self.width - 1))
        self.height -= 1
        if self.height == 0:
            reward = 1.0 if self.paddle == self.ball else -1.0
            return self.reset(), reward, True
        return self.obs(), 0.0, False


class AtariA2C(nn.Module):
    def __init__(self, obs_size, n_actions):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_size, 64), nn.ReLU())
        self.policy = nn.Linear(64, n_actions)
        self.value = nn.Linear(64, 1)

    def forward(self, x):
        h = self.trunk(x)
        return self.policy(h), self.value(h)


def collect(env, net, steps):
    exps, state = [], env.obs()
    for _ in range(steps):
        with torch.no_grad():
            logits, _ = net(torch.from_numpy(state)[None])
        action = torch.distributions.Categorical(logits=logits).sample().item()
        rewards, s, done = [], state, False
        for _ in range(REWARD_STEPS):
            s, r, done = env.step(action)
            rewards.append(r)
            if done:
                break
        ret = sum(r * GAMMA ** i for i, r in enumerate(rewards))
        exps.append(Experience(state, action, ret, None if done else s))
        state = s
    return exps


def unpack_batch(batch, net):
    states = torch.tensor(np.array([e.state for e in batch]))
    actions = torch.tensor([e.action for e in batch])
    rewards = np.array([e.reward for e in batch], dtype=np.float32)
    not_done = [i for i, e in enumerate(batch) if e.last_state is not None]
    if not_done:
        last = torch.tensor(np.array([batch[i].last_state for i in not_done]))
        with torch.no_grad():
            last_vals = net(last)[1].squeeze(-1).numpy()
        rewards[not_done] += GAMMA ** REWARD_STEPS * last_vals
    return states, actions, torch.from_numpy(rewards)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--iters", type=int, default=5)
    args = parser.parse_args([])
    torch.manual_seed(0)
    env = PaddleEnv()
    net = AtariA2C(17, 3)
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3, eps=1e-3)
    for it in range(args.iters):
        batch = collect(env, net, args.batch)
        states_v, actions_t, vals_ref_v = unpack_batch(batch, net)
        optimizer.zero_grad()
        logits_v, value_v = net(states_v)
        loss_value_v = F.mse_loss(value_v.squeeze(-1), vals_ref_v)
        log_prob_v = F.log_softmax(logits_v, dim=1)
        adv_v = vals_ref_v - value_v.squeeze(-1).detach()
        log_prob_actions_v = adv_v * log_prob_v[range(args.batch), actions_t]
        loss_policy_v = -log_prob_actions_v.mean()
        prob_v = F.softmax(logits_v, dim=1)
        entropy_loss_v = ENTROPY_BETA * (prob_v * log_prob_v).sum(dim=1).mean()
        loss_v = entropy_loss_v + loss_value_v + loss_policy_v
        loss_v.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 0.5)
        optimizer.step()
        print(f"iter {it} loss {loss_v.item():.3f}")


if __name__ == "__main__":
    main()
