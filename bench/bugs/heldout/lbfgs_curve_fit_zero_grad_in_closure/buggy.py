import math

import torch
import torch.nn as nn


class DampedOscillator(nn.Module):
    def __init__(self):
        super().__init__()
        self.log_amp = nn.Parameter(torch.tensor(0.0))
        self.decay = nn.Parameter(torch.tensor(0.1))
        self.omega = nn.Parameter(torch.tensor(2.0))
        self.phase = nn.Parameter(torch.tensor(0.0))

    def forward(self, t):
        return self.log_amp.exp() * torch.exp(-self.decay * t) * torch.cos(self.omega * t + self.phase)


def measurements(n=80):
    t = torch.linspace(0, 4 * math.pi, n)
    y = 1.5 * torch.exp(-0.3 * t) * torch.cos(2.2 * t + 0.4) + 0.01 * torch.randn(n)
    return t, y


def fit(model, t, y, outer_steps=4):
    optimizer = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=10, line_search_fn="strong_wolfe")

    def closure():
        optimizer.zero_grad()
        loss = torch.mean((model(t) - y) ** 2)
        loss.backward()
        return loss

    for step in range(outer_steps):
        loss = optimizer.step(closure)
        print(f"step {step}: mse {loss.item():.5f}")
    return model


if __name__ == "__main__":
    t, y = measurements()
    fit(DampedOscillator(), t, y)
