import torch
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class SyntheticClips(Dataset):
    """Log-mel-like patches whose class sets which band is loud."""

    def __init__(self, n=32, n_mels=16, frames=20, num_classes=4, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.labels = torch.randint(0, num_classes, (n,), generator=g)
        self.features = torch.randn(n, 1, n_mels, frames, generator=g)
        band = n_mels // num_classes
        for i, y in enumerate(self.labels.tolist()):
            self.features[i, :, y * band:(y + 1) * band] += 2.0

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input": self.features[i], "target": self.labels[i]}


class ClassyDataset:
    """Wraps a dataset with the sampler every replica shares; the task asks it for one iterator per phase."""

    def __init__(self, dataset, batch_size, shuffle, num_replicas=1, rank=0, seed=0):
        self.dataset = dataset
        self.batch_size = batch_size
        self.sampler = DistributedSampler(dataset, num_replicas=num_replicas, rank=rank, shuffle=shuffle, seed=seed)

    def iterator(self, current_phase_id=0, num_workers=0):
        return DataLoader(self.dataset, batch_size=self.batch_size, sampler=self.sampler, num_workers=num_workers)

    def __len__(self):
        return len(self.sampler) // self.batch_size
