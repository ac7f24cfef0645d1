from dispatch.env import JobShopEnv
from dispatch.networks import ActorCritic
from dispatch.ppo import Memory, PPO

__all__ = ["JobShopEnv", "ActorCritic", "Memory", "PPO"]
