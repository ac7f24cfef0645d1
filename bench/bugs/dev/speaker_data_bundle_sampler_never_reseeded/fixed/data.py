import torch
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class ChunkEgs(Dataset):
    """Fixed-length feature chunks with speaker labels, as written by the egs stage."""

    def __init__(self, n_chunks, n_frames, feat_dim, n_speakers, seed):
        g = torch.Generator().manual_seed(seed)
        self.feats = torch.randn(n_chunks, feat_dim, n_frames, generator=g)
        self.targets = torch.randint(0, n_speakers, (n_chunks,), generator=g)

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, i):
        return self.feats[i], self.targets[i]


class Egs:
    def __init__(self, trainset, validset, batch_size, world_size=1, rank=0):
        self.train_sampler = DistributedSampler(trainset, num_replicas=world_size, rank=rank, shuffle=True)
        self.train_loader = DataLoader(trainset, batch_size=batch_size, sampler=self.train_sampler, drop_last=True)
        self.valid_loader = DataLoader(validset, batch_size=batch_size)
        self.num_batch = len(self.train_loader)


def build_egs(conf):
    trainset = ChunkEgs(conf["n_chunks"], conf["frames"], conf["feat_dim"], conf["n_speakers"], seed=0)
    validset = ChunkEgs(conf["n_chunks"] // 4, conf["frames"], conf["feat_dim"], conf["n_speakers"], seed=1)
    return Egs(trainset, validset, conf["batch_size"])
