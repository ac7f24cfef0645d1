import torch


def compute_gae(rewards, values, dones, last_value, gamma: float = 0.99, lam: float = 0.95):
    """rewards, values, dones: (N, 1) columns, one row per step; last_value: (1, 1). Returns (advantages, returns)
    with the same (N, 1) layout."""
    advantages = torch.zeros_like(rewards)
    gae = torch.zeros(1)
    next_value = last_value.view(1)
    for t in reversed(range(rewards.shape[0])):
        not_done = 1.0 - dones[t]
        delta = rewards[t] + gamma * next_value * not_done - values[t]
        gae = delta + gamma * lam * not_done * gae
        advantages[t] = gae
        next_value = values[t]
    return advantages, advantages + values
