import torch
from torch.utils.data import Dataset


class CompositionDataset(Dataset):
    """Pairs of (attribute, object) labels with ResNet-18 features extracted offline.

    The feature file keeps the backbone's pooled output exactly as it came out of avgpool.
    """

    def __init__(self, num_images=40, num_attrs=6, num_objs=5, feat_dim=512):
        g = torch.Generator().manual_seed(1)
        self.activations = {i: torch.randn(feat_dim, 1, 1, generator=g) for i in range(num_images)}
        self.attrs = torch.randint(0, num_attrs, (num_images,), generator=g)
        self.objs = torch.randint(0, num_objs, (num_images,), generator=g)
        self.num_attrs, self.num_objs = num_attrs, num_objs

    def __len__(self):
        return len(self.attrs)

    def __getitem__(self, index):
        img = self.activations[index]
        return img, self.attrs[index], self.objs[index]
