from collections import defaultdict

import torch
import torch.nn.functional as F


def charbonnier(pred, target, eps=1e-3):
    return torch.sqrt((pred - target) ** 2 + eps ** 2).mean()


class Trainer:
    def __init__(self, model, train_loader, lr=1e-4, log_interval=4):
        self.model = model
        self.train_loader = train_loader
        self.optimizer = torch.optim.Adamax(model.parameters(), lr=lr)
        self.log_interval = log_interval
        self.history = defaultdict(list)
        self.step = 0

    def train_epoch(self, epoch):
        self.model.train()
        for frame0, frame_t, frame1 in self.train_loader:
            pred = self.model(frame0, frame1)
            loss = charbonnier(pred, frame_t)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()

            with torch.no_grad():
                psnr = -10 * torch.log10(F.mse_loss(pred.clamp(0, 1), frame_t))
            self.history["loss"].append(loss.item())
            self.history["psnr"].append(psnr.item())
            self.step += 1
            if self.step % self.log_interval == 0:
                recent = self.history["loss"][-self.log_interval:]
                print(f"epoch {epoch} step {self.step}: loss {sum(recent) / len(recent):.4f} psnr {psnr.item():.2f}")

    def summary(self):
        return {k: sum(float(v) for v in vals) / len(vals) for k, vals in self.history.items()}
