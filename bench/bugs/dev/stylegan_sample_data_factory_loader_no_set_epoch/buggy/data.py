"""Image set stand-in and the loader factory shared by train.py and the sampling script."""

import logging

import torch
from torch.utils import data
from torch.utils.data.distributed import DistributedSampler

logger = logging.getLogger(__name__)


class MultiResolutionDataset(data.Dataset):
    """Synthetic RGB images in [-1, 1] at one resolution (the LMDB reader's interface)."""

    def __init__(self, length=48, resolution=16, seed=0):
        generator = torch.Generator().manual_seed(seed)
        self.images = torch.rand(length, 3, resolution, resolution, generator=generator) * 2 - 1
        self.resolution = resolution

    def __len__(self):
        return self.images.shape[0]

    def __getitem__(self, index):
        return self.images[index]


def make_loader(dataset, batch_size, rank=0, world_size=1, workers=0):
    sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=True)
    loader = data.DataLoader(
        dataset,
        batch_size=batch_size,
        sampler=sampler,
        num_workers=workers,
        drop_last=True,
    )
    logger.info("rank %d/%d: %d images, %d batches", rank, world_size, len(dataset), len(loader))
    return loader
