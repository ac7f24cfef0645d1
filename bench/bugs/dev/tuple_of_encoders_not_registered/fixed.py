import torch
import torch.nn as nn
import torch.nn.functional as F


class Siamese(nn.Module):
    def __init__(self, dim=20, emb=16):
        super().__init__()
        self.encoders = nn.ModuleList([nn.Linear(dim, emb), nn.Linear(dim, emb)])
        self.temperature = nn.Parameter(torch.tensor(0.07))

    def forward(self, a, b):
        za = F.normalize(self.encoders[0](a), dim=-1)
        zb = F.normalize(self.encoders[1](b), dim=-1)
        return za @ zb.t() / self.temperature


model = Siamese()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
a, b = torch.randn(8, 20), torch.randn(8, 20)
logits = model(a, b)
loss = F.cross_entropy(logits, torch.arange(8))
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(len(model.state_dict()), "tensors in state_dict")
