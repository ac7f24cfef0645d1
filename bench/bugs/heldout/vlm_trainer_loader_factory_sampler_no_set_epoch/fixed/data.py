import torch
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class CaptionPairs(Dataset):
    def __init__(self, n: int = 32, img_dim: int = 24, vocab: int = 40, length: int = 8):
        g = torch.Generator().manual_seed(0)
        self.images = torch.randn(n, img_dim, generator=g)
        self.captions = torch.randint(0, vocab, (n, length), generator=g)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        return self.images[idx], self.captions[idx]


def get_dataloaders(batch_size: int, world_size: int, rank: int):
    train_ds = CaptionPairs()
    sampler = DistributedSampler(train_ds, num_replicas=world_size, rank=rank, shuffle=True, seed=0)
    train_loader = DataLoader(train_ds, batch_size=batch_size, sampler=sampler, drop_last=True)
    return train_loader
