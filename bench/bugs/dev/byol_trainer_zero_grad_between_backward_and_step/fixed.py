import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


def mlp(dim, projection_size, hidden_size):
    return nn.Sequential(
        nn.Linear(dim, hidden_size), nn.BatchNorm1d(hidden_size), nn.ReLU(inplace=True),
        nn.Linear(hidden_size, projection_size),
    )


class BYOL(nn.Module):
    def __init__(self, net, feature_dim, projection_size=16, hidden_size=64, moving_average_decay=0.99):
        super().__init__()
        self.online_encoder = nn.Sequential(net, mlp(feature_dim, projection_size, hidden_size))
        self.online_predictor = mlp(projection_size, projection_size, hidden_size)
        self.target_encoder = copy.deepcopy(self.online_encoder)
        for p in self.target_encoder.parameters():
            p.requires_grad_(False)
        self.beta = moving_average_decay

    @torch.no_grad()
    def update_moving_average(self):
        for online, target in zip(self.online_encoder.parameters(), self.target_encoder.parameters()):
            target.mul_(self.beta).add_(online, alpha=1 - self.beta)

    def forward(self, view_one, view_two):
        pred_one = self.online_predictor(self.online_encoder(view_one))
        pred_two = self.online_predictor(self.online_encoder(view_two))
        with torch.no_grad():
            target_one = self.target_encoder(view_one)
            target_two = self.target_encoder(view_two)
        loss_one = 2 - 2 * F.cosine_similarity(pred_one, target_two.detach(), dim=-1)
        loss_two = 2 - 2 * F.cosine_similarity(pred_two, target_one.detach(), dim=-1)
        return (loss_one + loss_two).mean()


class ImagesDataset(Dataset):
    def __init__(self, n, image_size):
        self.images = torch.rand(n, 3, image_size, image_size)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i]


def augment(images):
    flipped = torch.where(torch.rand(images.size(0), 1, 1, 1) < 0.5, images.flip(-1), images)
    return flipped + 0.05 * torch.randn_like(flipped)


class BYOLTrainer:
    def __init__(self, net, feature_dim, dataset, num_train_steps, batch_size=8, learning_rate=3e-4):
        self.byol = BYOL(net, feature_dim)
        self.optimizer = torch.optim.Adam(self.byol.parameters(), lr=learning_rate)
        self.dataloader = DataLoader(dataset, shuffle=True, batch_size=batch_size, drop_last=True)
        self.num_train_steps = num_train_steps
        self.step = 0

    def forward(self):
        while self.step < self.num_train_steps:
            for images in self.dataloader:
                loss = self.byol(augment(images), augment(images))
                loss.backward()
                self.optimizer.step()
                self.optimizer.zero_grad()
                self.byol.update_moving_average()
                self.step += 1
                if self.step >= self.num_train_steps:
                    break
            print(f"step {self.step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    backbone = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
    BYOLTrainer(backbone, feature_dim=16, dataset=ImagesDataset(32, 16), num_train_steps=8).forward()
