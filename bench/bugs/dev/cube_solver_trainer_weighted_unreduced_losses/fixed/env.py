import torch


def scramble_batch(batch_size, max_depth, state_dim=24, n_actions=12, generator=None):
    """Random scrambled states with the depth they were scrambled to and a target move/value."""
    depth = torch.randint(1, max_depth + 1, (batch_size,), generator=generator)
    states = torch.randn(batch_size, state_dim, generator=generator) * depth[:, None] / max_depth
    target_policy = torch.randint(0, n_actions, (batch_size,), generator=generator)
    target_value = -depth.float()
    return states, depth, target_policy, target_value
