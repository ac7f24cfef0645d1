import torch
from torch.utils.data import DataLoader, Dataset


class SensorWindows(Dataset):
    """Accelerometer + gyroscope recordings of varying length, one activity label each."""

    def __init__(self, n_items=12, n_channels=6, n_classes=5, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for _ in range(n_items):
            length = int(torch.randint(10, 21, (1,), generator=g))
            signal = torch.randn(length, n_channels, generator=g)
            label = int(torch.randint(0, n_classes, (1,), generator=g))
            self.items.append((signal, label))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        return self.items[idx]


def pad_collate(batch):
    signals, labels = zip(*batch)
    lengths = torch.tensor([s.shape[0] for s in signals])
    padded = torch.nn.utils.rnn.pad_sequence(signals, batch_first=True)
    return padded, lengths, torch.tensor(labels)


def lengths_to_padding_mask(lengths, max_len):
    positions = torch.arange(max_len).unsqueeze(0)
    return positions >= lengths.unsqueeze(1)


def make_loader(batch_size, seed=0):
    return DataLoader(SensorWindows(seed=seed), batch_size=batch_size, shuffle=True,
                      collate_fn=pad_collate, generator=torch.Generator().manual_seed(seed))
