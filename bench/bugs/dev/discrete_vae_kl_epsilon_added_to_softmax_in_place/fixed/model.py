import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ResBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(), nn.Conv2d(channels, channels, 1))

    def forward(self, x):
        return x + self.net(x)


class DiscreteVAE(nn.Module):
    def __init__(self, num_tokens=32, codebook_dim=16, hidden=32, temperature=0.9):
        super().__init__()
        self.num_tokens = num_tokens
        self.temperature = temperature
        self.encoder = nn.Sequential(
            nn.Conv2d(3, hidden, 4, stride=2, padding=1), nn.ReLU(), ResBlock(hidden), nn.Conv2d(hidden, num_tokens, 1),
        )
        self.codebook = nn.Embedding(num_tokens, codebook_dim)
        self.decoder = nn.Sequential(
            nn.Conv2d(codebook_dim, hidden, 1), ResBlock(hidden), nn.ConvTranspose2d(hidden, 3, 4, stride=2, padding=1),
        )

    def forward(self, images):
        logits = self.encoder(images)
        soft_one_hot = F.gumbel_softmax(logits, tau=self.temperature, dim=1)
        sampled = torch.einsum("bnhw,nd->bdhw", soft_one_hot, self.codebook.weight)
        recon = self.decoder(sampled)

        qy = F.softmax(logits, dim=1)
        qy = qy + 1e-10
        log_uniform = math.log(1.0 / self.num_tokens)
        kl_div = (qy * (torch.log(qy) - log_uniform)).sum(dim=1).mean()
        return recon, kl_div
