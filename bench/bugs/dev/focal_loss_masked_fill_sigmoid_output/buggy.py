import torch
import torch.nn as nn


def masked_focal_loss(logits, targets, valid, gamma=2.0):
    probs = torch.sigmoid(logits)
    probs.masked_fill_(~valid, 0.5)
    pt = probs * targets + (1 - probs) * (1 - targets)
    loss = -((1 - pt) ** gamma) * torch.log(pt.clamp(min=1e-6))
    return loss[valid].mean()


class MultiLabelTagger(nn.Module):
    def __init__(self, n_in=20, n_labels=5):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, 32), nn.ReLU(), nn.Linear(32, n_labels))

    def forward(self, x):
        return self.net(x)


model = MultiLabelTagger()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.randn(8, 20)
targets = (torch.rand(8, 5) > 0.7).float()
valid = torch.rand(8, 5) > 0.1
loss = masked_focal_loss(model(x), targets, valid)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(loss.item())
