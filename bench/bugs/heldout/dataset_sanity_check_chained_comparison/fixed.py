import torch
from torch.utils.data import Dataset, DataLoader


class SegmentationSet(Dataset):
    def __init__(self, n: int = 6, num_classes: int = 4) -> None:
        self.num_classes = num_classes
        self.images = torch.rand(n, 3, 16, 16)
        self.masks = torch.randint(0, num_classes, (n, 16, 16))

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, idx: int):
        mask = self.masks[idx]
        assert 0 <= mask.min() and mask.max() < self.num_classes, f"mask {idx} has labels outside [0, {self.num_classes})"
        return self.images[idx], mask


loader = DataLoader(SegmentationSet(), batch_size=2)
for images, masks in loader:
    print(images.shape, masks.shape)
