import torch
import torch.nn as nn


class GatedResidual(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.value = nn.Linear(dim, dim)
        self.gate = nn.Linear(dim, dim)

    def forward(self, x):
        h = self.value(x)
        gated = h * torch.sigmoid(self.gate(x))
        h.relu_()
        return x + gated + h


block = GatedResidual()
x = torch.randn(6, 32)
loss = block(x).pow(2).mean()
loss.backward()
print(loss.item())
