import torch
from torch import nn


class BallTracker(nn.Module):
    """Predicts the next 2-D position from the current one, one frame at a time."""

    def __init__(self, n_in=2, hidden=12):
        super().__init__()
        self.lstm = nn.LSTM(n_in, hidden, batch_first=True)
        self.readout = nn.Linear(hidden, n_in)

    def step(self, frame, state=None):
        _, state = self.lstm(frame, state)
        h_n = state[0]
        return self.readout(h_n[-1]), state


class RolloutTrainer:
    def __init__(self, model: BallTracker, lr=5e-3, warmup=3):
        self.model = model
        self.warmup = warmup
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.loss_fn = nn.MSELoss()

    def rollout_loss(self, trajectories):
        state = None
        losses = []
        for t in range(trajectories.size(1) - 1):
            pred, state = self.model.step(trajectories[:, [t], :], state)
            if t >= self.warmup:
                losses.append(self.loss_fn(pred, trajectories[:, t + 1, :]))
        return torch.stack(losses).mean()

    def fit(self, trajectories, epochs=3):
        for epoch in range(epochs):
            loss = self.rollout_loss(trajectories)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            print(epoch, loss.item())


def bouncing_balls(n=32, steps=10):
    t = torch.linspace(0, 1, steps)
    speed = torch.rand(n, 1, 2)
    return (speed * t.view(1, -1, 1)).remainder(1.0)


if __name__ == "__main__":
    torch.manual_seed(0)
    RolloutTrainer(BallTracker()).fit(bouncing_balls())
