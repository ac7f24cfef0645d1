import torch
import torch.nn as nn
import torch.nn.functional as F


def log_metrics(step, losses, every=1):
    if step % every == 0:
        print(f"step {step}: loss {losses.item():.4f}")


model = nn.Linear(10, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    x, y = torch.randn(16, 10), torch.randn(16)
    per_sample = F.smooth_l1_loss(model(x).squeeze(1), y, reduction="none")
    weights = torch.linspace(0.5, 1.5, 16)
    loss = (weights * per_sample).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    log_metrics(step, per_sample.mean())
