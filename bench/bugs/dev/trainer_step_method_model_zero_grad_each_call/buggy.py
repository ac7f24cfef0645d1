import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, grad_accum=4):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=3e-4)
        self.grad_accum = grad_accum
        self.global_step = 0

    def training_step(self, x, y):
        self.model.zero_grad()
        loss = nn.functional.cross_entropy(self.model(x), y) / self.grad_accum
        loss.backward()
        self.global_step += 1
        if self.global_step % self.grad_accum == 0:
            self.opt.step()
        return loss.item()


trainer = Trainer(nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 3)))
for _ in range(12):
    trainer.training_step(torch.randn(4, 12), torch.randint(0, 3, (4,)))
print("steps", trainer.global_step // trainer.grad_accum)
