import torch
from torch.utils.data import Dataset


class RoadTiles(Dataset):
    """Satellite tiles with a binary road raster of the same height and width."""

    def __init__(self, n: int = 12, size: int = 32, seed: int = 17) -> None:
        g = torch.Generator().manual_seed(seed)
        self.tiles = torch.rand(n, 3, size, size, generator=g)
        rows = torch.randint(0, size, (n,), generator=g)
        self.masks = torch.zeros(n, size, size)
        for i, r in enumerate(rows.tolist()):
            self.masks[i, max(r - 1, 0):r + 2, :] = 1.0

    def __len__(self) -> int:
        return len(self.tiles)

    def __getitem__(self, i: int) -> dict[str, torch.Tensor]:
        return {"image": self.tiles[i], "mask": self.masks[i].unsqueeze(0)}
