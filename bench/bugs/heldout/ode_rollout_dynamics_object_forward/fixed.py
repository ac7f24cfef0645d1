import math

import torch


class Pendulum:
    def __init__(self, g: float = 9.81, length: float = 1.0, dt: float = 0.02) -> None:
        self.g, self.length, self.dt = g, length, dt

    def forward(self, state: torch.Tensor) -> torch.Tensor:
        theta, omega = state[..., 0], state[..., 1]
        omega = omega - self.g / self.length * torch.sin(theta) * self.dt
        theta = theta + omega * self.dt
        return torch.stack([theta, omega], dim=-1)


def rollout(dynamics, state: torch.Tensor, steps: int) -> torch.Tensor:
    states = [state]
    for _ in range(steps):
        state = dynamics.forward(state=state)
        states.append(state)
    return torch.stack(states)


trajectory = rollout(Pendulum(), torch.tensor([[math.pi / 4, 0.0], [math.pi / 8, 0.5]]), steps=50)
print(trajectory.shape, trajectory[-1])
