import argparse

import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_

from models import ActionModel, TransitionModel, ValueModel


def lambda_target(rewards, values, gamma, lambda_):
    """TD(lambda) returns over an imagined horizon; rewards and values are (H, B, 1)."""
    horizon = rewards.shape[0] - 1
    targets = torch.zeros_like(rewards)
    last = values[-1]
    targets[-1] = last
    for t in reversed(range(horizon)):
        last = rewards[t] + gamma * ((1 - lambda_) * values[t + 1] + lambda_ * last)
        targets[t] = last
    return targets


def imagine(transition, action_model, start, horizon):
    states, s = [], start
    for _ in range(horizon):
        s = transition(s, action_model(s))
        states.append(s)
    return torch.stack(states)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--imagination_horizon", type=int, default=5)
    parser.add_argument("--gamma", type=float, default=0.9)
    parser.add_argument("--lambda_", type=float, default=0.95)
    parser.add_argument("--clip_grad_norm", type=float, default=100.0)
    parser.add_argument("--updates", type=int, default=3)
    args = parser.parse_args([])
    torch.manual_seed(3)

    transition = TransitionModel()
    value_model = ValueModel()
    action_model = ActionModel()
    for p in transition.parameters():
        p.requires_grad_(False)
    value_optimizer = torch.optim.Adam(value_model.parameters(), lr=8e-5)
    action_optimizer = torch.optim.Adam(action_model.parameters(), lr=8e-5)
    mse_loss = nn.MSELoss()

    for update in range(args.updates):
        flatten_states = torch.randn(32, 16)
        imaginated_states = imagine(transition, action_model, flatten_states, args.imagination_horizon)
        imaginated_rewards = -imaginated_states.pow(2).mean(-1, keepdim=True)
        imaginated_values = value_model(imaginated_states)
        lambda_target_values = lambda_target(imaginated_rewards, imaginated_values, args.gamma, args.lambda_)

        # update value model
        value_loss = 0.5 * mse_loss(imaginated_values, lambda_target_values.detach())
        value_optimizer.zero_grad()
        value_loss.backward(retain_graph=True)
        clip_grad_norm_(value_model.parameters(), args.clip_grad_norm)
        value_optimizer.step()

        # update action model (multiply -1 for gradient ascent)
        action_loss = -1 * (lambda_target_values.mean())
        action_optimizer.zero_grad()
        action_loss.backward()
        clip_grad_norm_(action_model.parameters(), args.clip_grad_norm)
        action_optimizer.step()

        print(f"update {update}: value_loss {value_loss.item():.4f} action_loss {action_loss.item():.4f}")


if __name__ == "__main__":
    main()
