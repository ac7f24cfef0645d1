import torch
from torch import nn


class Trainer:
    def __init__(self, model: nn.Module, accum_steps: int = 3) -> None:
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
        self.model = model.to(self.device)
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        self.scaler = torch.amp.GradScaler(self.device)
        self.accum_steps = accum_steps
        self.micro_step = 0

    def training_step(self, x: torch.Tensor, y: torch.Tensor) -> float:
        self.optimizer.zero_grad(set_to_none=True)
        with torch.autocast(self.device, dtype=torch.bfloat16):
            loss = nn.functional.mse_loss(self.model(x), y) / self.accum_steps
        self.scaler.scale(loss).backward()
        self.micro_step += 1
        if self.micro_step % self.accum_steps == 0:
            self.scaler.step(self.optimizer)
            self.scaler.update()
        return loss.item()


trainer = Trainer(nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1)))
for _ in range(9):
    trainer.training_step(torch.randn(8, 6), torch.randn(8, 1))
print("micro steps", trainer.micro_step)
