import torch
import torch.nn as nn


class AutoencoderTrainer:
    def __init__(self, model: nn.Module, lr: float = 1e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
        self.loss_fn = nn.MSELoss()

    def training_step(self, batch: torch.Tensor) -> float:
        recon = self.model(batch)
        loss = self.loss_fn(recon, batch)
        loss.backward()
        self.optimizer.zero_grad()
        self.optimizer.step()
        return loss.item()


model = nn.Sequential(nn.Linear(32, 8), nn.ReLU(), nn.Linear(8, 32))
trainer = AutoencoderTrainer(model)
data = torch.randn(64, 32)
for step, batch in enumerate(data.split(16)):
    print(step, trainer.training_step(batch))
