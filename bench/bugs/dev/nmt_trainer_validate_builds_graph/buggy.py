from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Opts:
    vocab: int = 50
    emb: int = 16
    hidden: int = 32
    batch: int = 8
    src_len: int = 7
    train_steps: int = 6
    valid_steps: int = 3


class ToyNMT(nn.Module):
    def __init__(self, opts):
        super().__init__()
        self.embed = nn.Embedding(opts.vocab, opts.emb)
        self.encoder = nn.GRU(opts.emb, opts.hidden, batch_first=True)
        self.dropout = nn.Dropout(0.3)
        self.generator = nn.Linear(opts.hidden, opts.vocab)

    def forward(self, src):
        states, _ = self.encoder(self.embed(src))
        return self.generator(self.dropout(states))


def batches(opts, n):
    for _ in range(n):
        src = torch.randint(0, opts.vocab, (opts.batch, opts.src_len))
        yield src, src.flip(1)


class Trainer:
    def __init__(self, model, optim, opts):
        self.model = model
        self.optim = optim
        self.opts = opts

    def _loss(self, src, tgt):
        logits = self.model(src)
        return F.cross_entropy(logits.reshape(-1, self.opts.vocab), tgt.reshape(-1))

    def train(self):
        self.model.train()
        for src, tgt in batches(self.opts, self.opts.train_steps):
            self.optim.zero_grad()
            loss = self._loss(src, tgt)
            loss.backward()
            self.optim.step()
        return loss.item()

    def validate(self, valid_iter):
        self.model.eval()
        total, n = 0.0, 0
        for src, tgt in valid_iter:
            outputs = self.model(src)
            loss = F.cross_entropy(outputs.reshape(-1, self.opts.vocab), tgt.reshape(-1), reduction="sum")
            total += loss.item()
            n += tgt.numel()
        self.model.train()
        return total / n


opts = Opts()
model = ToyNMT(opts)
trainer = Trainer(model, torch.optim.Adam(model.parameters(), lr=1e-3), opts)
for epoch in range(2):
    train_loss = trainer.train()
    valid_loss = trainer.validate(batches(opts, opts.valid_steps))
    print(f"epoch {epoch} train {train_loss:.3f} valid {valid_loss:.3f}")
