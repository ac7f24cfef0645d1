import logging

import torch

from callbacks import EpochLogger, GradClip
from model import TinyCTCModel
from trainer import AmpTrainer


def fake_utterances(n_batches=3, batch=4, frames=30, n_mels=20, vocab=12, label_len=6, seed=0):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n_batches):
        feats = torch.randn(batch, frames, n_mels, generator=g)
        targets = torch.randint(1, vocab, (batch, label_len), generator=g)
        out.append((feats, targets, torch.full((batch,), frames), torch.full((batch,), label_len)))
    return out


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    model = TinyCTCModel()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    trainer = AmpTrainer(model, opt, callbacks=[GradClip(max_norm=5.0), EpochLogger()])
    trainer.fit(fake_utterances(), epochs=2)
