from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainerConfig:
    vocab: int = 24
    dim: int = 16
    lr: float = 1e-3
    micro_batches: int = 4
    micro_batch_size: int = 2
    seq_len: int = 6
    steps: int = 2


class PolicyLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab, cfg.dim)
        self.mix = nn.GRU(cfg.dim, cfg.dim, batch_first=True)
        self.head = nn.Linear(cfg.dim, cfg.vocab)

    def forward(self, tokens):
        h, _ = self.mix(self.embed(tokens))
        return self.head(h)


class RLTrainer:
    """Exposes fwd_bwd and optim_step separately, as a controller drives them."""

    def __init__(self, cfg):
        self.cfg = cfg
        self.model = PolicyLM(cfg)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=cfg.lr)

    def fwd_bwd(self, tokens, advantages):
        logp = F.log_softmax(self.model(tokens[:, :-1]), -1)
        token_logp = logp.gather(-1, tokens[:, 1:, None]).squeeze(-1)
        loss = -(token_logp.sum(-1) * advantages).mean() / self.cfg.micro_batches
        loss.backward()
        return loss.item()

    def optim_step(self):
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.optimizer.step()
        self.optimizer.zero_grad()


def rollouts(cfg):
    for _ in range(cfg.micro_batches):
        tokens = torch.randint(0, cfg.vocab, (cfg.micro_batch_size, cfg.seq_len))
        yield tokens, torch.randn(cfg.micro_batch_size)


cfg = TrainerConfig()
trainer = RLTrainer(cfg)
for step in range(cfg.steps):
    losses = []
    for tokens, adv in rollouts(cfg):
        losses.append(trainer.fwd_bwd(tokens, adv))
    trainer.optim_step()
    print(step, round(sum(losses), 4))
