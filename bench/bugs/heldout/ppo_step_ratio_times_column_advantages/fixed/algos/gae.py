import torch


def estimate_advantages(rewards, masks, values, gamma, tau):
    """rewards, masks: (N,) ; values: (N, 1) from the critic. Returns advantages and returns, both (N, 1)."""
    deltas = torch.zeros_like(values)
    advantages = torch.zeros_like(values)
    prev_value, prev_advantage = 0.0, 0.0
    for i in reversed(range(rewards.size(0))):
        deltas[i] = rewards[i] + gamma * prev_value * masks[i] - values[i]
        advantages[i] = deltas[i] + gamma * tau * prev_advantage * masks[i]
        prev_value, prev_advantage = values[i, 0], advantages[i, 0]
    returns = values + advantages
    advantages = (advantages - advantages.mean()) / advantages.std()
    return advantages, returns
