from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class GANConfig:
    epochs: int = 2
    batch_size: int = 4
    segment_len: int = 64
    mel_channels: int = 8
    steps_to_start_discriminator: int = 6
    lr_gen: float = 2e-4
    lr_disc: float = 2e-4
    lr_decay: float = 0.99


class Generator(nn.Module):
    def __init__(self, mel_channels, hop=8):
        super().__init__()
        self.pre = nn.Conv1d(mel_channels, 16, 3, padding=1)
        self.up = nn.ConvTranspose1d(16, 8, hop, stride=hop)
        self.post = nn.Conv1d(8, 1, 3, padding=1)

    def forward(self, mel):
        return torch.tanh(self.post(F.leaky_relu(self.up(F.leaky_relu(self.pre(mel))), 0.1)))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Conv1d(1, 8, 15, stride=4, padding=7), nn.LeakyReLU(0.2), nn.Conv1d(8, 1, 3, padding=1))

    def forward(self, wav):
        return self.layers(wav)


class GANTrainer:
    def __init__(self, config, model_g, model_d):
        self.config = config
        self.model_g, self.model_d = model_g, model_d
        self.optimizer = [
            torch.optim.AdamW(model_g.parameters(), lr=config.lr_gen, betas=(0.8, 0.99)),
            torch.optim.AdamW(model_d.parameters(), lr=config.lr_disc, betas=(0.8, 0.99)),
        ]
        self.scheduler = [torch.optim.lr_scheduler.ExponentialLR(opt, gamma=config.lr_decay) for opt in self.optimizer]
        self.total_steps_done = 0

    def train_step(self, mel, wav):
        fake = self.model_g(mel)
        train_disc = self.total_steps_done >= self.config.steps_to_start_discriminator
        if train_disc:
            real_score = self.model_d(wav)
            loss_d = F.mse_loss(real_score, torch.ones_like(real_score)) + self.model_d(fake.detach()).pow(2).mean()
            self.optimizer[1].zero_grad()
            loss_d.backward()
            self.optimizer[1].step()
        loss_g = F.l1_loss(fake, wav)
        if train_disc:
            fake_score = self.model_d(fake)
            loss_g = loss_g + F.mse_loss(fake_score, torch.ones_like(fake_score))
        self.optimizer[0].zero_grad()
        loss_g.backward()
        self.optimizer[0].step()
        self.total_steps_done += 1
        return loss_g.item()

    def train_epoch(self, loader):
        losses = [self.train_step(mel, wav) for mel, wav in loader]
        for scheduler in self.scheduler:
            scheduler.step()
        return sum(losses) / len(losses)

    def fit(self, loader):
        for epoch in range(self.config.epochs):
            print(f"epoch {epoch}: loss_g {self.train_epoch(loader):.4f}")


def synthetic_loader(config, n_batches=4):
    hop = 8
    frames = config.segment_len // hop
    return [
        (torch.randn(config.batch_size, config.mel_channels, frames), torch.rand(config.batch_size, 1, config.segment_len) * 2 - 1)
        for _ in range(n_batches)
    ]


if __name__ == "__main__":
    torch.manual_seed(0)
    config = GANConfig()
    GANTrainer(config, Generator(config.mel_channels), Discriminator()).fit(synthetic_loader(config))
