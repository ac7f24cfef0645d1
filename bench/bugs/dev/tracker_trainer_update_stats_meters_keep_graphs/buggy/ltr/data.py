import torch
from torch.utils.data import DataLoader, Dataset


class PairDataset(Dataset):
    """Template/search crops of a bright square; the label marks where it sits in the search crop."""

    def __init__(self, n=32, template=8, search=16, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        out = search - template + 1
        for _ in range(n):
            t = 0.1 * torch.randn(3, template, template, generator=g)
            t[:, 2:6, 2:6] += 1.0
            s = 0.1 * torch.randn(3, search, search, generator=g)
            r, c = torch.randint(0, out, (2,), generator=g).tolist()
            s[:, r + 2:r + 6, c + 2:c + 6] += 1.0
            label = torch.zeros(1, out, out)
            label[0, r, c] = 1.0
            self.items.append({"template": t, "search": s, "label": label})

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def train_loader(batch_size=4, seed=0):
    return DataLoader(PairDataset(seed=seed), batch_size=batch_size, shuffle=True,
                      generator=torch.Generator().manual_seed(seed))
