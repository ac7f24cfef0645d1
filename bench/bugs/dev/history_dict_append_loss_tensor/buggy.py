from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 4))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
history = defaultdict(list)

for step in range(10):
    x, y = torch.randn(32, 16), torch.randint(0, 4, (32,))
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    history["loss"].append(loss)
    history["acc"].append((logits.argmax(1) == y).float().mean().item())

print("mean loss", sum(float(l) for l in history["loss"]) / len(history["loss"]))
