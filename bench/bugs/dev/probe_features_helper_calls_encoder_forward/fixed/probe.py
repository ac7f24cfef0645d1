import logging

import torch
import torch.nn as nn

from encoder import AudioEncoder
from features import embed_dataset

log = logging.getLogger("probe")


def synthetic_clips(n, frames=20, n_mels=16, n_classes=3):
    labels = torch.randint(0, n_classes, (n,))
    mels = torch.randn(n, frames, n_mels) + labels[:, None, None].float()
    return mels, labels


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    encoder = AudioEncoder().eval()
    mels, labels = synthetic_clips(24)
    feats = embed_dataset(encoder, mels.split(8))
    probe = nn.Linear(feats.shape[1], 3)
    opt = torch.optim.LBFGS(probe.parameters(), max_iter=20)

    def closure():
        opt.zero_grad()
        loss = nn.functional.cross_entropy(probe(feats), labels)
        loss.backward()
        return loss

    opt.step(closure)
    acc = (probe(feats).argmax(1) == labels).float().mean().item()
    log.info("linear probe accuracy %.3f", acc)


if __name__ == "__main__":
    main()
