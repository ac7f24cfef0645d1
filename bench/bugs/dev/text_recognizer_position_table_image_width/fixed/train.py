from dataclasses import dataclass

import torch
import torch.nn.functional as F

from modules import VisionRecognizer


@dataclass
class DatasetConfig:
    img_h: int = 32
    img_w: int = 256
    max_length: int = 8
    charset_size: int = 37
    batch_size: int = 4


def synthetic_words(cfg: DatasetConfig, n_batches=2):
    for _ in range(n_batches):
        images = torch.rand(cfg.batch_size, 3, cfg.img_h, cfg.img_w)
        labels = torch.randint(0, cfg.charset_size, (cfg.batch_size, cfg.max_length))
        yield images, labels


def train(cfg: DatasetConfig):
    model = VisionRecognizer(cfg.charset_size, cfg.max_length, img_h=cfg.img_h, img_w=cfg.img_w)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    for step, (images, labels) in enumerate(synthetic_words(cfg)):
        logits = model(images)
        loss = F.cross_entropy(logits.flatten(0, 1), labels.flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    torch.manual_seed(0)
    train(DatasetConfig())
