import copy

import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, loss, optimizer, *, stride_apply=2, ema_decay=0.99):
        self.model = model
        self.loss = loss
        self.optimizer = optimizer
        self.stride_apply = stride_apply
        self.ema_decay = ema_decay
        self.ema = copy.deepcopy(model).requires_grad_(False)

    def step_ema(self):
        with torch.no_grad():
            for p, e in zip(self.model.parameters(), self.ema.parameters()):
                e.mul_(self.ema_decay).add_(p, alpha=1 - self.ema_decay)

    def train_batch(self, data, targets, apply_gradients=True):
        outputs = self.model(data)
        loss = self.loss(outputs, targets) / self.stride_apply
        if loss is not None:
            loss.backward()
        if apply_gradients:
            self.optimizer.step()
            self.optimizer.zero_grad()
            self.step_ema()
        return loss.item()

    def train(self, scenes, epoch):
        self.model.train()
        self.optimizer.zero_grad()
        for batch_idx, (data, targets) in enumerate(scenes):
            apply_gradients = batch_idx % self.stride_apply == self.stride_apply - 1
            loss = self.train_batch(data, targets, apply_gradients)
        print(epoch, loss)


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 17, 1))
    trainer = Trainer(net, nn.MSELoss(), torch.optim.SGD(net.parameters(), lr=1e-3, momentum=0.9))
    scenes = [(torch.rand(2, 3, 16, 16), torch.rand(2, 17, 16, 16)) for _ in range(6)]
    for epoch in range(2):
        trainer.train(scenes, epoch)
