import logging

import torch
import torch.nn.functional as F

from model import PatchMixer

logging.basicConfig(level=logging.INFO, format="%(message)s")
log = logging.getLogger(__name__)


def batches(n_batches, batch_size, g):
    for _ in range(n_batches):
        yield torch.randn(batch_size, 3, 20, 20, generator=g), torch.randint(0, 10, (batch_size,), generator=g)


def train_step(model: PatchMixer, opt, images, labels):
    opt.zero_grad()
    loss = F.cross_entropy(model(images), labels)
    loss.backward()
    opt.step()
    return loss.item()


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = PatchMixer()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)
    for i, (images, labels) in enumerate(batches(3, 2, g)):
        log.info("step %d loss %.4f", i, train_step(model, opt, images, labels))


if __name__ == "__main__":
    main()
