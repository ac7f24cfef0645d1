import torch
import torch.nn as nn
import torch.nn.functional as F

from precision import NativeMixedPrecisionPlugin


class LitRegressor(nn.Module):
    def __init__(self, in_dim=16, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, hidden), nn.GELU(), nn.Linear(hidden, 1))

    def training_step(self, batch):
        x, y = batch
        return F.mse_loss(self.net(x).squeeze(-1), y)

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=3e-4)


class Trainer:
    def __init__(self, max_epochs=2, gradient_clip_val=1.0):
        self.max_epochs = max_epochs
        self.gradient_clip_val = gradient_clip_val
        self.precision_plugin = NativeMixedPrecisionPlugin()

    def clip_gradients(self, model):
        if self.gradient_clip_val > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), self.gradient_clip_val)

    def run_training_batch(self, model, optimizer, batch):
        optimizer.zero_grad()
        with self.precision_plugin.autocast():
            loss = model.training_step(batch)
        self.precision_plugin.backward(loss)
        self.precision_plugin.pre_optimizer_step(optimizer)
        self.clip_gradients(model)
        self.precision_plugin.scaler.step(optimizer)
        self.precision_plugin.scaler.update()
        return loss.detach()

    def fit(self, model, batches):
        optimizer = model.configure_optimizers()
        for epoch in range(self.max_epochs):
            losses = [self.run_training_batch(model, optimizer, b) for b in batches]
            print(epoch, torch.stack(losses).mean().item())


if __name__ == "__main__":
    data = [(torch.randn(8, 16), torch.randn(8)) for _ in range(3)]
    Trainer().fit(LitRegressor(), data)
