import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyDenoiser(nn.Module):
    def __init__(self, ch=8, t_dim=16):
        super().__init__()
        self.t_embed = nn.Sequential(nn.Linear(1, t_dim), nn.SiLU(), nn.Linear(t_dim, ch))
        self.conv_in = nn.Conv2d(3, ch, 3, padding=1)
        self.conv_out = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, x, t):
        h = self.conv_in(x) + self.t_embed(t[:, None].float())[:, :, None, None]
        return self.conv_out(F.silu(h))


def add_noise(x0, noise, t, n_steps=100):
    alpha_bar = torch.cos(t.float() / n_steps * torch.pi / 2)[:, None, None, None] ** 2
    return alpha_bar.sqrt() * x0 + (1 - alpha_bar).sqrt() * noise


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--gradient_accumulation_steps", type=int, default=4)
    p.add_argument("--learning_rate", type=float, default=1e-4)
    p.add_argument("--num_batches", type=int, default=8)
    return p.parse_args([])


def main():
    args = parse_args()
    torch.manual_seed(0)
    model = TinyDenoiser()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)
    training_dataloader = [torch.rand(2, 3, 16, 16) for _ in range(args.num_batches)]
    for step, images in enumerate(training_dataloader):
        optimizer.zero_grad()
        noise = torch.randn_like(images)
        t = torch.randint(0, 100, (images.size(0),))
        loss = F.mse_loss(model(add_noise(images, noise, t), t), noise)
        (loss / args.gradient_accumulation_steps).backward()
        if (step + 1) % args.gradient_accumulation_steps == 0:
            optimizer.step()
            print(step, loss.item())


if __name__ == "__main__":
    main()
