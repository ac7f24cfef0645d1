import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, in_channels: int, dim: int = 64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(in_channels, 32, 5, padding=2), nn.BatchNorm1d(32), nn.ReLU(),
            nn.Conv1d(32, 64, 5, padding=2), nn.BatchNorm1d(64), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(64, dim),
        )

    def forward(self, x):
        return self.net(x)


class MoCo(nn.Module):
    def __init__(self, encoder: Encoder, dim: int, queue_size: int, momentum: float = 0.99, tau: float = 0.1):
        super().__init__()
        self.query_encoder = encoder
        self.key_encoder = copy.deepcopy(encoder)
        for p in self.key_encoder.parameters():
            p.requires_grad_(False)
        self.momentum, self.tau = momentum, tau
        self.register_buffer("queue", F.normalize(torch.randn(queue_size, dim), dim=1))
        self.register_buffer("ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update(self):
        for q, k in zip(self.query_encoder.parameters(), self.key_encoder.parameters()):
            k.mul_(self.momentum).add_(q.detach(), alpha=1 - self.momentum)

    @torch.no_grad()
    def _enqueue(self, keys: torch.Tensor):
        b = keys.shape[0]
        ptr = int(self.ptr)
        self.queue[ptr:ptr + b] = keys
        self.ptr[0] = (ptr + b) % self.queue.shape[0]

    def forward(self, x_q, x_k):
        q = F.normalize(self.query_encoder(x_q), dim=1)
        with torch.no_grad():
            self._momentum_update()
            k = F.normalize(self.key_encoder(x_k), dim=1)
        pos = (q * k).sum(dim=1, keepdim=True)
        neg = q @ self.queue.clone().T
        logits = torch.cat([pos, neg], dim=1) / self.tau
        labels = torch.zeros(len(q), dtype=torch.long)
        self._enqueue(k)
        return F.cross_entropy(logits, labels)
