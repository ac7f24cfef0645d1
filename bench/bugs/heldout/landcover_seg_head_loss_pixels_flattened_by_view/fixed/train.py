import torch
from torch.utils.data import DataLoader, Dataset

from landcover.model import LandCoverNet

CLASSES = ["water", "trees", "grass", "crops", "shrub", "built", "bare"]


class TileDataset(Dataset):
    def __init__(self, n=24, size=64, bands=4):
        g = torch.Generator().manual_seed(0)
        self.tiles = torch.rand(n, bands, size, size, generator=g)
        self.masks = torch.randint(0, len(CLASSES), (n, size, size), generator=g)
        self.masks[:, :2, :] = 255

    def __len__(self):
        return len(self.tiles)

    def __getitem__(self, i):
        return self.tiles[i], self.masks[i]


def main():
    dataset = TileDataset()
    counts = torch.bincount(dataset.masks[dataset.masks != 255].flatten(), minlength=len(CLASSES)).float()
    weights = counts.sum() / (len(CLASSES) * counts)
    model = LandCoverNet(n_classes=len(CLASSES), class_weights=weights)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loader = DataLoader(dataset, batch_size=4, shuffle=True)
    for epoch in range(2):
        model.train()
        for tiles, masks in loader:
            logits = model(tiles)
            loss = model.head.loss(logits, masks)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
