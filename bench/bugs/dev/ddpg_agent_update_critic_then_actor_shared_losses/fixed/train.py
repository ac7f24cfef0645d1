import argparse
import logging

import torch

from agent import DDPGAgent
from env import PointMass
from replay import ReplayBuffer

log = logging.getLogger("ddpg")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--total-steps", type=int, default=80)
    parser.add_argument("--start-steps", type=int, default=40)
    parser.add_argument("--batch-size", type=int, default=16)
    args = parser.parse_args([])

    torch.manual_seed(0)
    env = PointMass(seed=0)
    agent = DDPGAgent(env.obs_dim, env.act_dim)
    buffer = ReplayBuffer(env.obs_dim, env.act_dim, size=1000)

    obs, episode_return = env.reset(), 0.0
    for step in range(args.total_steps):
        action = agent.act(obs)
        next_obs, reward, done = env.step(action)
        buffer.add(obs, action, reward, next_obs, float(done))
        obs, episode_return = next_obs, episode_return + reward
        if done:
            log.info("episode return %.2f", episode_return)
            obs, episode_return = env.reset(), 0.0
        if step >= args.start_steps:
            critic_loss, actor_loss = agent.learn(buffer.sample(args.batch_size))
            if step % 20 == 0:
                log.info("step %d critic %.4f actor %.4f", step, critic_loss, actor_loss)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
