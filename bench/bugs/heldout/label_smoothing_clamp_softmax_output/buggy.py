import torch
from torch import nn


def smoothed_nll(logits: torch.Tensor, targets: torch.Tensor, eps: float = 0.1) -> torch.Tensor:
    probs = logits.softmax(dim=-1)
    probs.clamp_(min=1e-6)
    log_probs = probs.log()
    nll = -log_probs.gather(1, targets[:, None]).squeeze(1)
    smooth = -log_probs.mean(dim=-1)
    return ((1 - eps) * nll + eps * smooth).mean()


model = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 7))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
x, y = torch.randn(10, 32), torch.randint(0, 7, (10,))
loss = smoothed_nll(model(x), y)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(loss.item())
