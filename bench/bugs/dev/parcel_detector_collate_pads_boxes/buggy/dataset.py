import torch
from torch.utils.data import Dataset

PAD_CLASS = -1


class ParcelImages(Dataset):
    """Conveyor-belt frames with 1-6 parcels each; boxes are (cx, cy, w, h, cls) in [0, 1]."""

    def __init__(self, n: int = 10, size: int = 48, seed: int = 21) -> None:
        g = torch.Generator().manual_seed(seed)
        self.frames = torch.rand(n, 3, size, size, generator=g)
        self.annotations = []
        for _ in range(n):
            k = int(torch.randint(1, 7, (1,), generator=g))
            centers = 0.1 + 0.8 * torch.rand(k, 2, generator=g)
            sizes = 0.05 + 0.1 * torch.rand(k, 2, generator=g)
            classes = torch.randint(0, 3, (k, 1), generator=g).float()
            self.annotations.append(torch.cat([centers, sizes, classes], dim=1))

    def __len__(self) -> int:
        return len(self.frames)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        return self.frames[i], self.annotations[i]


def pad_collate(batch: list[tuple[torch.Tensor, torch.Tensor]]) -> tuple[torch.Tensor, torch.Tensor]:
    frames = torch.stack([frame for frame, _ in batch])
    most = max(len(boxes) for _, boxes in batch)
    padded = []
    for _, boxes in batch:
        filler = torch.zeros(most - len(boxes), 5)
        filler[:, 4] = PAD_CLASS
        padded.append(torch.cat([boxes, filler], dim=0))
    return frames, torch.stack(padded)
