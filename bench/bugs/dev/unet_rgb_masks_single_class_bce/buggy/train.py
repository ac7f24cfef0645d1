import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

from model import UNet


class CarvanaDataset(Dataset):
    """Car photos and their segmentation masks (arrays stand in for the PNG files)."""

    def __init__(self, n: int, size: int = 32) -> None:
        rng = np.random.default_rng(0)
        self.imgs = rng.random((n, size, size, 3), dtype=np.float32)
        self.masks = (rng.random((n, size, size, 3)) > 0.5).astype(np.float32)

    def __len__(self) -> int:
        return len(self.imgs)

    def __getitem__(self, i: int):
        img = torch.from_numpy(self.imgs[i]).permute(2, 0, 1)
        mask = torch.from_numpy(self.masks[i]).permute(2, 0, 1)
        return {"image": img, "mask": mask}


def train_net(net: nn.Module, epochs: int = 1, batch_size: int = 2, lr: float = 1e-3) -> None:
    loader = DataLoader(CarvanaDataset(6), batch_size=batch_size, shuffle=True)
    optimizer = torch.optim.RMSprop(net.parameters(), lr=lr, weight_decay=1e-8, momentum=0.9)
    criterion = nn.CrossEntropyLoss() if net.outc.out_channels > 1 else nn.BCEWithLogitsLoss()
    for epoch in range(epochs):
        net.train()
        for batch in loader:
            imgs, true_masks = batch["image"], batch["mask"]
            masks_pred = net(imgs)
            loss = criterion(masks_pred, true_masks)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch + 1}: {loss.item():.4f}")


if __name__ == "__main__":
    train_net(UNet(n_channels=3, n_classes=1))
