import torch
import torch.nn.functional as F

from config import DGCNNConfig
from model import DGCNN


def synthetic_clouds(cfg, generator):
    points = torch.randn(cfg.batch_size, cfg.num_points, 3, generator=generator)
    labels = torch.randint(0, cfg.num_classes, (cfg.batch_size,), generator=generator)
    return points, labels


def main():
    torch.manual_seed(0)
    cfg = DGCNNConfig()
    model = DGCNN(cfg)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    g = torch.Generator().manual_seed(0)
    for epoch in range(cfg.epochs):
        model.train()
        points, labels = synthetic_clouds(cfg, g)
        logits = model(points)
        loss = F.cross_entropy(logits, labels, label_smoothing=0.2)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
