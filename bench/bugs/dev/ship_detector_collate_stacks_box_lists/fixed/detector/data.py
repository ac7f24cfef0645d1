import torch
from torch.utils.data import Dataset


class ShipChips(Dataset):
    """Synthetic aerial chips with a variable number of ships, boxes as (x1, y1, x2, y2, cls)."""

    def __init__(self, n: int = 12, size: int = 64, seed: int = 11) -> None:
        g = torch.Generator().manual_seed(seed)
        self.size = size
        self.images = torch.rand(n, 3, size, size, generator=g)
        self.boxes = []
        for _ in range(n):
            k = int(torch.randint(1, 5, (1,), generator=g))
            xy = torch.rand(k, 2, generator=g) * (size - 12)
            wh = 4 + torch.rand(k, 2, generator=g) * 8
            cls = torch.randint(0, 2, (k, 1), generator=g).float()
            self.boxes.append(torch.cat([xy, xy + wh, cls], dim=1))

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, idx: int) -> tuple[torch.Tensor, torch.Tensor]:
        image = self.images[idx]
        boxes = self.boxes[idx].clone()
        if idx % 2:
            image = image.flip(-1)
            boxes[:, [0, 2]] = self.size - boxes[:, [2, 0]]
        return image, boxes


def detection_collate(batch):
    images = torch.stack([sample[0] for sample in batch], dim=0)
    targets = [sample[1] for sample in batch]
    return images, targets
