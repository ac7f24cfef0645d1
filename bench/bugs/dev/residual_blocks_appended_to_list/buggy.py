import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = nn.Conv1d(c, c, 3, padding=1)
        self.norm = nn.BatchNorm1d(c)

    def forward(self, x):
        return x + F.relu(self.norm(self.conv(x)))


class ECGNet(nn.Module):
    def __init__(self, leads=12, channels=16, depth=3, classes=5):
        super().__init__()
        self.stem = nn.Conv1d(leads, channels, 7, padding=3)
        self.blocks = []
        for _ in range(depth):
            self.blocks.append(Block(channels))
        self.head = nn.Linear(channels, classes)

    def forward(self, x):
        x = self.stem(x)
        for block in self.blocks:
            x = block(x)
        return self.head(x.mean(dim=-1))


model = ECGNet()
print(len(list(model.parameters())), "parameter tensors")
signals, labels = torch.randn(4, 12, 250), torch.randint(0, 5, (4,))
loss = F.cross_entropy(model(signals), labels)
loss.backward()
print(loss.item())
