import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from config import SegConfig
from model import FootprintUNet


def synthetic_tiles(cfg: SegConfig):
    images = torch.rand(cfg.n_tiles, 3, cfg.tile_size, cfg.tile_size)
    masks = (images.mean(1, keepdim=True) > 0.5).float()
    return TensorDataset(images, masks)


def dice_bce(logits, mask, eps=1.0):
    prob = torch.sigmoid(logits)
    inter = (prob * mask).sum(dim=(1, 2, 3))
    dice = 1 - (2 * inter + eps) / (prob.sum(dim=(1, 2, 3)) + mask.sum(dim=(1, 2, 3)) + eps)
    return F.binary_cross_entropy_with_logits(logits, mask) + dice.mean()


def main():
    cfg = SegConfig()
    dataset = synthetic_tiles(cfg)
    loader = DataLoader(dataset, batch_size=cfg.batch_size, shuffle=True)
    model = FootprintUNet(base=cfg.base_channels)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.max_lr / 25)
    steps_per_epoch = len(dataset) // cfg.batch_size
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=cfg.max_lr, epochs=cfg.epochs,
                                                    steps_per_epoch=steps_per_epoch)
    for epoch in range(cfg.epochs):
        model.train()
        for images, masks in loader:
            loss = dice_bce(model(images), masks)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            scheduler.step()
        print(f"epoch {epoch} loss {loss.item():.4f} lr {scheduler.get_last_lr()[0]:.2e}")


if __name__ == "__main__":
    main()
