from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class Problem(nn.Module):
    """A system-identification problem: a neural state-space model fitted to measured trajectories."""

    def __init__(self, nx=3, nu=1, hidden=24):
        super().__init__()
        self.fx = nn.Sequential(nn.Linear(nx + nu, hidden), nn.Tanh(), nn.Linear(hidden, nx))

    def forward(self, data):
        x = data["x0"]
        preds = []
        for t in range(data["u"].size(1)):
            x = x + self.fx(torch.cat([x, data["u"][:, t]], dim=-1))
            preds.append(x)
        xhat = torch.stack(preds, dim=1)
        return {"loss": F.mse_loss(xhat, data["y"]), "xhat": xhat}


class Trainer:
    def __init__(self, problem, train_data, dev_data, optimizer, epochs=3, clip=10.0):
        self.model = problem
        self.train_data = train_data
        self.dev_data = dev_data
        self.optimizer = optimizer
        self.epochs = epochs
        self.clip = clip
        self.history = defaultdict(list)

    def train(self):
        for epoch in range(self.epochs):
            self.model.train()
            for batch in self.train_data:
                self.optimizer.zero_grad()
                output = self.model(batch)
                output["loss"].backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
                self.optimizer.step()
                self.history["train_loss"].append(output["loss"].detach())
            with torch.no_grad():
                self.model.eval()
                dev_loss = sum(self.model(b)["loss"].item() for b in self.dev_data) / len(self.dev_data)
            self.history["dev_loss"].append(dev_loss)
            print(f"epoch {epoch} train {self.history['train_loss'][-1].item():.4f} dev {dev_loss:.4f}")
        return self.history


def make_batches(n, seed, batch=4, nsteps=6):
    g = torch.Generator().manual_seed(seed)
    return [{"x0": torch.randn(batch, 3, generator=g), "u": torch.randn(batch, nsteps, 1, generator=g),
             "y": torch.randn(batch, nsteps, 3, generator=g)} for _ in range(n)]


if __name__ == "__main__":
    torch.manual_seed(0)
    problem = Problem()
    Trainer(problem, make_batches(4, 0), make_batches(2, 1), torch.optim.AdamW(problem.parameters(), lr=1e-3)).train()
