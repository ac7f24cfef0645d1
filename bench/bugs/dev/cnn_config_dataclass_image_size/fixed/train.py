import torch
import torch.nn.functional as F

from config import Config
from data import make_split
from model import CellClassifier

CROP_SIZE = 96


def main():
    cfg = Config(image_size=CROP_SIZE)
    model = CellClassifier(cfg)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    images, labels = make_split(8, CROP_SIZE)
    for epoch in range(cfg.epochs):
        for i in range(0, len(images), cfg.batch_size):
            x, y = images[i:i + cfg.batch_size], labels[i:i + cfg.batch_size]
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    main()
