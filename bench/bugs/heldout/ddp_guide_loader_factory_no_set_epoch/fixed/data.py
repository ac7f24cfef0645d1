import torch
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class TokenDataset(Dataset):
    def __init__(self, n_samples=64, seq_len=16, vocab=100, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.tokens = torch.randint(0, vocab, (n_samples, seq_len + 1), generator=g)

    def __len__(self):
        return len(self.tokens)

    def __getitem__(self, idx):
        row = self.tokens[idx]
        return row[:-1], row[1:]


def build_dataloader(dataset, batch_size, world_size, rank, seed=0):
    sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=True, seed=seed, drop_last=True)
    return DataLoader(dataset, batch_size=batch_size, sampler=sampler, drop_last=True, num_workers=0)
