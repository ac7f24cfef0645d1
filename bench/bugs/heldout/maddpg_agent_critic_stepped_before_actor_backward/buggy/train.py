"""Two cooperative agents on a toy particle task; the replay buffer is filled with random transitions."""
import argparse

import torch

from maddpg import MADDPG


class Agent:
    def __init__(self, agent_id, args):
        self.agent_id = agent_id
        self.policy = MADDPG(args, agent_id)

    def learn(self, transitions, other_agents):
        return self.policy.train(transitions, other_agents)


def sample_transitions(args, batch):
    t = {}
    for i in range(args.n_agents):
        t["o_%d" % i] = torch.randn(batch, args.obs_dim)
        t["u_%d" % i] = torch.rand(batch, args.act_dim) * 2 - 1
        t["o_next_%d" % i] = torch.randn(batch, args.obs_dim)
        t["r_%d" % i] = -t["o_%d" % i].pow(2).sum(1)
    return t


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--n-agents", dest="n_agents", type=int, default=2)
    p.add_argument("--obs-dim", dest="obs_dim", type=int, default=6)
    p.add_argument("--act-dim", dest="act_dim", type=int, default=2)
    p.add_argument("--lr-actor", dest="lr_actor", type=float, default=1e-3)
    p.add_argument("--lr-critic", dest="lr_critic", type=float, default=1e-3)
    p.add_argument("--gamma", type=float, default=0.95)
    p.add_argument("--tau", type=float, default=0.01)
    p.add_argument("--batch-size", dest="batch_size", type=int, default=32)
    return p.parse_args([])


def main():
    torch.manual_seed(0)
    args = get_args()
    agents = [Agent(i, args) for i in range(args.n_agents)]
    for step in range(5):
        transitions = sample_transitions(args, args.batch_size)
        for agent in agents:
            others = [a for a in agents if a is not agent]
            c_loss, a_loss = agent.learn(transitions, others)
        print(f"step {step} critic {c_loss:.3f} actor {a_loss:.3f}")


if __name__ == "__main__":
    main()
