import torch
import torch.nn.functional as F
from torch.utils.data import Dataset

IGNORE_INDEX = 255
SIZE_DIVISIBILITY = 32


class RandomCropScenes(Dataset):
    def __init__(self, n, crop, num_classes, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.images = torch.rand(n, 3, crop + 40, crop + 56, generator=g)
        self.masks = torch.randint(0, num_classes, (n, crop + 40, crop + 56), generator=g)
        self.crop = crop
        self.g = g

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        _, h, w = self.images[i].shape
        top = int(torch.randint(0, h - self.crop + 1, (1,), generator=self.g))
        left = int(torch.randint(0, w - self.crop + 1, (1,), generator=self.g))
        sl = (slice(top, top + self.crop), slice(left, left + self.crop))
        return self.images[i][(slice(None),) + sl], self.masks[i][sl]


def pad_to_stride(tensor, value, stride=SIZE_DIVISIBILITY):
    h, w = tensor.shape[-2:]
    pad_h, pad_w = (-h) % stride, (-w) % stride
    return F.pad(tensor, (0, pad_w, 0, pad_h), value=value)


def collate_padded(batch):
    """Pad every image (and its mask, with the ignore label) up to a multiple of the coarsest stride."""
    images = torch.stack([pad_to_stride(img, 0.0) for img, _ in batch])
    masks = torch.stack([pad_to_stride(mask, IGNORE_INDEX) for _, mask in batch])
    return images, masks
