import time

import torch
import torch.nn.functional as F

from kws.model import KeywordSpotter


def fake_batch(batch_size, n_mels=40, frames=49, n_keywords=12, g=None):
    mels = torch.randn(batch_size, n_mels, frames, generator=g)
    labels = torch.randint(0, n_keywords, (batch_size,), generator=g)
    return mels, labels


def train(model: KeywordSpotter, steps=2, batch_size=8, lr=5e-4):
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    g = torch.Generator().manual_seed(0)
    model.train()
    for step in range(steps):
        t0 = time.time()
        mels, labels = fake_batch(batch_size, g=g)
        loss = F.cross_entropy(model(mels), labels, label_smoothing=0.1)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.3f} ({time.time() - t0:.2f}s)")


if __name__ == "__main__":
    torch.manual_seed(0)
    train(KeywordSpotter())
