import torch
from torch import nn


class WGANTrainer:
    def __init__(self) -> None:
        self.G = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2))
        self.C = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 1))
        self.opt_g = torch.optim.RMSprop(self.G.parameters(), lr=5e-5)
        self.opt_c = torch.optim.RMSprop(self.C.parameters(), lr=5e-5)
        self.log = {"c_loss": [], "g_loss": []}

    def train_step(self, real: torch.Tensor) -> None:
        fake = self.G(torch.randn(real.size(0), 8))
        c_loss = self.C(fake.detach()).mean() - self.C(real).mean()
        self.opt_c.zero_grad()
        c_loss.backward()
        self.opt_c.step()
        for p in self.C.parameters():
            p.data.clamp_(-0.01, 0.01)

        g_loss = -self.C(fake).mean()
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        self.log["c_loss"].append(c_loss.item())
        self.log["g_loss"].append(g_loss)


trainer = WGANTrainer()
for it in range(10):
    trainer.train_step(torch.randn(16, 2) + 3)
print(len(trainer.log["g_loss"]), float(trainer.log["g_loss"][-1]))
