from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler


def get_loaders(train_set, valid_set, batch_size, world_size=1, rank=0):
    train_sampler = DistributedSampler(train_set, num_replicas=world_size, rank=rank, shuffle=True)
    return {
        "train": DataLoader(train_set, batch_size=batch_size, sampler=train_sampler),
        "valid": DataLoader(valid_set, batch_size=batch_size, shuffle=False),
    }
