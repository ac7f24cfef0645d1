import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

from model import CourtTrackNet


class CourtFrames(Dataset):
    def __init__(self, n=24, size=16, num_keypoints=4):
        self.frames = torch.rand(n, 3, size, size)
        self.heatmaps = torch.rand(n, num_keypoints, size, size)

    def __len__(self):
        return len(self.frames)

    def __getitem__(self, idx):
        return self.frames[idx], self.heatmaps[idx]


class BaseTrainer:
    def __init__(self, model, train_loader, val_loader, lr=1e-3):
        self.model = model
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr, betas=(0.9, 0.999))
        self.criterion = nn.MSELoss()

    def train_epoch(self, epoch):
        self.model.train()
        running = 0.0
        for step, (frames, heatmaps) in enumerate(self.train_loader):
            out = self.model(frames)
            loss = self.criterion(torch.sigmoid(out), heatmaps)
            loss.backward()
            self.optimizer.step()
            running += loss.item()
        return running / (step + 1)

    @torch.no_grad()
    def validate(self):
        self.model.eval()
        losses = [self.criterion(torch.sigmoid(self.model(f)), h).item() for f, h in self.val_loader]
        return sum(losses) / len(losses)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=4)
    args = parser.parse_args([])
    train_loader = DataLoader(CourtFrames(), batch_size=args.batch_size, shuffle=True)
    val_loader = DataLoader(CourtFrames(n=8), batch_size=args.batch_size)
    trainer = BaseTrainer(CourtTrackNet(), train_loader, val_loader)
    for epoch in range(args.epochs):
        train_loss = trainer.train_epoch(epoch)
        print(f"epoch {epoch}: train {train_loss:.4f} val {trainer.validate():.4f}")


if __name__ == "__main__":
    main()
