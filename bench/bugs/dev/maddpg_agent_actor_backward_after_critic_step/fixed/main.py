import argparse

import torch

from maddpg.agent import MADDPGAgent


def get_args():
    parser = argparse.ArgumentParser("MADDPG on a toy cooperative task")
    parser.add_argument("--n-agents", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lr-actor", type=float, default=1e-3)
    parser.add_argument("--lr-critic", type=float, default=1e-3)
    parser.add_argument("--gamma", type=float, default=0.95)
    parser.add_argument("--tau", type=float, default=0.01)
    parser.add_argument("--updates", type=int, default=3)
    args = parser.parse_args([])
    args.obs_dims, args.act_dims = [6] * args.n_agents, [2] * args.n_agents
    return args


def sample_buffer(args):
    b = args.batch_size
    batch = {"o": [torch.randn(b, d) for d in args.obs_dims],
             "u": [torch.rand(b, d) * 2 - 1 for d in args.act_dims],
             "o_next": [torch.randn(b, d) for d in args.obs_dims]}
    for i in range(args.n_agents):
        batch["r_%d" % i] = torch.randn(b)
    return batch


if __name__ == "__main__":
    torch.manual_seed(0)
    args = get_args()
    agents = [MADDPGAgent(i, args) for i in range(args.n_agents)]
    for step in range(args.updates):
        transitions = sample_buffer(args)
        for agent in agents:
            c, a = agent.train(transitions, agents)
        print(f"update {step}: critic {c:.4f} actor {a:.4f}")
