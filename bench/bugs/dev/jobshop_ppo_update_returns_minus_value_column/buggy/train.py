import argparse
import logging

import numpy as np
import torch

from config import PPOConfig
from dispatch import ActorCritic, JobShopEnv, Memory, PPO

logger = logging.getLogger("train")


def rollout(env, agent, memory, episodes_per_update):
    makespans = []
    for _ in range(episodes_per_update):
        obs, done = env.reset(), False
        while not done:
            state = torch.from_numpy(obs)
            mask = torch.from_numpy(env.legal_mask())
            with torch.no_grad():
                action, logprob = agent.policy_old.act(state, mask)
            memory.states.append(state)
            memory.masks.append(mask)
            memory.actions.append(action)
            memory.logprobs.append(logprob)
            obs, reward, done = env.step(action.item())
            memory.rewards.append(reward)
            memory.dones.append(done)
        makespans.append(env.machine_free.max())
    return float(np.mean(makespans))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=None)
    parser.add_argument("--per-update", type=int, default=4)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")

    cfg = PPOConfig()
    if args.episodes is not None:
        cfg.episodes = args.episodes
    torch.manual_seed(cfg.seed)
    env = JobShopEnv(cfg.n_jobs, cfg.n_machines, seed=cfg.seed)
    policy = ActorCritic(cfg.n_jobs * (cfg.n_machines + 1), cfg.n_jobs, hidden=cfg.hidden)
    agent = PPO(policy, cfg)
    memory = Memory()

    for i in range(cfg.episodes // args.per_update):
        makespan = rollout(env, agent, memory, args.per_update)
        loss, v_loss = agent.update(memory)
        memory.clear()
        logger.info("update %d makespan %.1f loss %.4f v_loss %.4f", i, makespan, loss, v_loss)


if __name__ == "__main__":
    main()
