import torch
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class SparseFeatureDataset(Dataset):
    """Inputs made of a few active features out of n_features, as in toy-model-of-superposition runs."""

    def __init__(self, n_samples, n_features, feature_probability, seed):
        g = torch.Generator().manual_seed(seed)
        active = torch.rand(n_samples, n_features, generator=g) < feature_probability
        self.data = torch.rand(n_samples, n_features, generator=g) * active

    def __len__(self):
        return len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]


def create_data_loader(config, rank=0, world_size=1):
    dataset = SparseFeatureDataset(config["n_samples"], config["n_features"], config["feature_probability"], config["seed"])
    sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=True, seed=config["seed"])
    return DataLoader(dataset, batch_size=config["batch_size"], sampler=sampler, drop_last=True)
