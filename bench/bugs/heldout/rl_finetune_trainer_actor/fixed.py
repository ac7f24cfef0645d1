from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainerConfig:
    lr: float = 1e-3
    max_norm: float = 1.0
    steps: int = 4
    batch_size: int = 8
    seq_len: int = 10


class TinyPolicy(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.mix = nn.GRU(dim, dim, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        h, _ = self.mix(self.embed(tokens))
        return self.lm_head(h)


class RLTrainer:
    """Policy-gradient steps on sampled completions, one call per batch from the controller."""

    def __init__(self, model, cfg: TrainerConfig):
        self.model = model
        self.cfg = cfg
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)

    def forward_backward(self, tokens, advantages):
        logits = self.model(tokens[:, :-1])
        logp = -F.cross_entropy(logits.transpose(1, 2), tokens[:, 1:], reduction="none").sum(1)
        loss = -(advantages * logp).mean()
        loss.backward()
        return loss.detach()

    def optim_step(self):
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg.max_norm)
        self.optimizer.step()
        self.optimizer.zero_grad()

    def train_step(self, tokens, advantages):
        loss = self.forward_backward(tokens, advantages)
        self.optim_step()
        return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = TrainerConfig()
    trainer = RLTrainer(TinyPolicy(), cfg)
    for step in range(cfg.steps):
        tokens = torch.randint(0, 64, (cfg.batch_size, cfg.seq_len))
        advantages = torch.randn(cfg.batch_size)
        print(step, trainer.train_step(tokens, advantages))
