import torch
import torch.nn as nn
import torch.nn.functional as F


class SegmentationTrainer:
    def __init__(self, model, train_batches, val_batches):
        self.model = model
        self.train_batches, self.val_batches = train_batches, val_batches
        self.optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    def train_epoch(self):
        self.model.train()
        for img, mask in self.train_batches:
            loss = F.binary_cross_entropy_with_logits(self.model(img), mask)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()

    @torch.no_grad()
    def evaluate(self):
        self.model.eval()
        dice = []
        for img, mask in self.val_batches:
            pred = torch.sigmoid(self.model(img)) > 0.5
            inter = (pred & mask.bool()).sum().item()
            dice.append(2 * inter / (pred.sum().item() + mask.sum().item() + 1e-6))
        return sum(dice) / len(dice)


def batches(n):
    return [(torch.rand(2, 1, 32, 32), (torch.rand(2, 1, 32, 32) > 0.8).float()) for _ in range(n)]


net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.Conv2d(8, 1, 1))
trainer = SegmentationTrainer(net, batches(3), batches(2))
for epoch in range(2):
    trainer.train_epoch()
    print(epoch, round(trainer.evaluate(), 4))
