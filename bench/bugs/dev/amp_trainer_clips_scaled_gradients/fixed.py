import torch
import torch.nn as nn
import torch.nn.functional as F


class GPTTrainer:
    def __init__(self, model, grad_norm_clip=1.0):
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
        self.model = model.to(self.device)
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
        self.scaler = torch.amp.GradScaler(self.device)
        self.grad_norm_clip = grad_norm_clip

    def run_batch(self, x, y):
        with torch.autocast(self.device, dtype=torch.bfloat16):
            logits = self.model(x)
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))
        self.optimizer.zero_grad(set_to_none=True)
        self.scaler.scale(loss).backward()
        self.scaler.unscale_(self.optimizer)
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.grad_norm_clip)
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return loss.item()


model = nn.Sequential(nn.Embedding(50, 32), nn.Linear(32, 50))
trainer = GPTTrainer(model)
for it in range(2):
    x = torch.randint(0, 50, (4, 8))
    print(it, trainer.run_batch(x, torch.roll(x, -1, dims=1)))
