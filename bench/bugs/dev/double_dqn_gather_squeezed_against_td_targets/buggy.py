"""Double DQN on a toy grid-navigation task, notebook-style."""
import random
from collections import namedtuple

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

Transition = namedtuple("Transition", "state action reward next_state done")

GRID = 5
N_ACTIONS = 4
GAMMA = 0.95
BATCH = 32
TAU = 0.05

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)


def one_hot_state(pos):
    s = np.zeros(GRID * GRID, dtype=np.float32)
    s[pos[0] * GRID + pos[1]] = 1.0
    return s


def env_step(pos, action):
    dr, dc = [(-1, 0), (1, 0), (0, -1), (0, 1)][action]
    new = (min(max(pos[0] + dr, 0), GRID - 1), min(max(pos[1] + dc, 0), GRID - 1))
    done = new == (GRID - 1, GRID - 1)
    return new, (1.0 if done else -0.04), done


policy_net = nn.Sequential(nn.Linear(GRID * GRID, 64), nn.ReLU(), nn.Linear(64, N_ACTIONS))
target_net = nn.Sequential(nn.Linear(GRID * GRID, 64), nn.ReLU(), nn.Linear(64, N_ACTIONS))
target_net.load_state_dict(policy_net.state_dict())
optimizer = torch.optim.Adam(policy_net.parameters(), lr=1e-3)
memory = []


def soft_update(target, source, tau):
    with torch.no_grad():
        for t, s in zip(target.parameters(), source.parameters()):
            t.mul_(1 - tau).add_(s, alpha=tau)


def optimize():
    batch = Transition(*zip(*random.sample(memory, BATCH)))
    states = torch.from_numpy(np.stack(batch.state))
    actions = torch.tensor(batch.action, dtype=torch.long)
    rewards = torch.tensor(batch.reward, dtype=torch.float32)
    next_states = torch.from_numpy(np.stack(batch.next_state))
    dones = torch.tensor(batch.done, dtype=torch.float32)

    q_sa = policy_net(states).gather(1, actions.unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        best_next = policy_net(next_states).argmax(dim=1, keepdim=True)
        q_next = target_net(next_states).gather(1, best_next).squeeze(1)
        targets = rewards + GAMMA * q_next * (1 - dones)

    loss = F.smooth_l1_loss(q_sa, targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    soft_update(target_net, policy_net, TAU)
    return loss.item()


for episode in range(8):
    pos, steps, losses = (0, 0), 0, []
    done = False
    while not done and steps < 50:
        eps = max(0.1, 1.0 - episode / 6)
        state = one_hot_state(pos)
        if random.random() < eps:
            action = random.randrange(N_ACTIONS)
        else:
            with torch.no_grad():
                action = int(policy_net(torch.from_numpy(state)[None]).argmax())
        pos, reward, done = env_step(pos, action)
        memory.append(Transition(state, action, reward, one_hot_state(pos), float(done)))
        steps += 1
        if len(memory) >= BATCH:
            losses.append(optimize())
    print(f"episode {episode}: {steps} steps, loss {np.mean(losses) if losses else float('nan'):.4f}")
