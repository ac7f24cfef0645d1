import torch
from torch.utils.data import DataLoader, TensorDataset

from config import BATCH_SIZE, FINDINGS, IMAGE_SIZE


def encode_labels(label_strings: list[str]) -> torch.Tensor:
    """'Effusion|Mass' -> multi-hot row over FINDINGS; 'No Finding' -> all zeros."""
    rows = torch.zeros(len(label_strings), len(FINDINGS))
    for i, text in enumerate(label_strings):
        for name in text.split("|"):
            if name in FINDINGS:
                rows[i, FINDINGS.index(name)] = 1.0
    return rows


def build_loader(n: int = 16) -> DataLoader:
    g = torch.Generator().manual_seed(5)
    images = torch.rand(n, 1, IMAGE_SIZE, IMAGE_SIZE, generator=g)
    picks = torch.randint(0, len(FINDINGS), (n, 2), generator=g)
    label_strings = [f"{FINDINGS[a]}|{FINDINGS[b]}" if a % 3 else "No Finding" for a, b in picks.tolist()]
    return DataLoader(TensorDataset(images, encode_labels(label_strings)), batch_size=BATCH_SIZE, shuffle=True)
