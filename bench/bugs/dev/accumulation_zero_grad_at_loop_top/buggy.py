import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

accumulation_steps = 4
model = nn.Sequential(nn.Linear(24, 48), nn.ReLU(), nn.Linear(48, 2))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(torch.randn(96, 24), torch.randint(0, 2, (96,))), batch_size=8)

model.train()
for i, (x, y) in enumerate(loader):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y) / accumulation_steps
    loss.backward()
    if (i + 1) % accumulation_steps == 0:
        optimizer.step()
print("last loss", loss.item() * accumulation_steps)
