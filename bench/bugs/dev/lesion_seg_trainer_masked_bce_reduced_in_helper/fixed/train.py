import torch
from torch.utils.data import DataLoader, TensorDataset

from trainer import SegTrainer
from unet import SmallUNet


def fundus_like(n=24, size=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    images = torch.rand(n, 1, size, size, generator=g)
    masks = (images > 0.8).float()
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    fov = ((yy - size / 2) ** 2 + (xx - size / 2) ** 2 < (size / 2) ** 2).expand(n, 1, size, size)
    return TensorDataset(images, masks, fov)


def main():
    torch.manual_seed(0)
    loader = DataLoader(fundus_like(), batch_size=4, shuffle=True)
    SegTrainer(SmallUNet()).fit(loader)


if __name__ == "__main__":
    main()
