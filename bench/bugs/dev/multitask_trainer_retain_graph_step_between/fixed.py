import torch
import torch.nn as nn
import torch.nn.functional as F


class TwoHeadNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
        self.cls_head = nn.Linear(32, 4)
        self.reg_head = nn.Linear(32, 1)

    def forward(self, x):
        h = self.encoder(x)
        return self.cls_head(h), self.reg_head(h).squeeze(-1)


class MultiTaskTrainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

    def step(self, x, labels, targets):
        self.opt.zero_grad()
        logits, preds = self.model(x)
        cls_loss = F.cross_entropy(logits, labels)
        reg_loss = F.mse_loss(preds, targets)
        cls_loss.backward(retain_graph=True)
        reg_loss.backward()
        self.opt.step()
        return cls_loss.item(), reg_loss.item()


trainer = MultiTaskTrainer(TwoHeadNet())
for i in range(2):
    print(trainer.step(torch.randn(8, 16), torch.randint(0, 4, (8,)), torch.randn(8)))
