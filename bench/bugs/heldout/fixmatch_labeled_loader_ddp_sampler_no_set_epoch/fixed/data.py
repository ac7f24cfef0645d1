import torch
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class TinyCIFAR(Dataset):
    def __init__(self, n=64, seed=0):
        gen = torch.Generator().manual_seed(seed)
        self.images = torch.randn(n, 3, 16, 16, generator=gen)
        self.targets = torch.randint(0, 10, (n,), generator=gen)

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, idx):
        img = self.images[idx]
        if torch.rand(()) < 0.5:
            img = img.flip(-1)
        return img, self.targets[idx]


def get_loaders(args):
    labeled = TinyCIFAR(args.num_labeled, seed=0)
    unlabeled = TinyCIFAR(4 * args.num_labeled, seed=1)
    world_size = args.world_size
    labeled_sampler = DistributedSampler(labeled, num_replicas=world_size, rank=args.local_rank, shuffle=True)
    unlabeled_sampler = DistributedSampler(unlabeled, num_replicas=world_size, rank=args.local_rank, shuffle=True)
    labeled_loader = DataLoader(labeled, batch_size=args.batch_size, sampler=labeled_sampler, drop_last=True)
    unlabeled_loader = DataLoader(unlabeled, batch_size=args.batch_size * args.mu, sampler=unlabeled_sampler, drop_last=True)
    return labeled_loader, unlabeled_loader
