import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, optimizer, callbacks=(), epochs=3):
        self.model = model
        self.optimizer = optimizer
        self.callbacks = list(callbacks)
        self.epochs = epochs
        self.losses = []

    def log(self, msg):
        print(msg)

    def train_epoch(self, loader):
        self.model.train()
        self.losses = []
        for voxels, tsdf in loader:
            self.optimizer.zero_grad()
            pred = self.model(voxels)
            loss = F.smooth_l1_loss(pred, tsdf)
            loss.backward()
            self.optimizer.step()
            self.losses.append(loss.item())

    def fit(self, loader):
        for epoch in range(self.epochs):
            for cb in self.callbacks:
                cb.on_epoch_start(self, epoch)
            self.train_epoch(loader)
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch)
