import torch
from torch.utils.data import Dataset


class ChnSentiCorp(Dataset):
    """Hotel reviews with a positive/negative label, already tokenised to character ids."""

    def __init__(self, split="train", n=48, max_len=16, vocab_size=300):
        g = torch.Generator().manual_seed(0 if split == "train" else 1)
        self.input_ids = torch.randint(1, vocab_size, (n, max_len), generator=g)
        self.attention_mask = torch.ones(n, max_len, dtype=torch.long)
        self.attention_mask[:, max_len // 2:] = (torch.rand(n, max_len - max_len // 2, generator=g) > 0.5).long()
        self.labels = torch.randint(0, 2, (n,), generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.input_ids[i], self.attention_mask[i], self.labels[i]
