import torch
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class TokenBlocks(Dataset):
    """Fixed-length blocks of token ids; the target is the block shifted by one."""

    def __init__(self, n_blocks, block_size, vocab_size, seed):
        g = torch.Generator().manual_seed(seed)
        self.tokens = torch.randint(0, vocab_size, (n_blocks, block_size + 1), generator=g)

    def __len__(self):
        return len(self.tokens)

    def __getitem__(self, idx):
        chunk = self.tokens[idx]
        return chunk[:-1], chunk[1:]


def build_dataloaders(cfg):
    train_set = TokenBlocks(cfg.num_train, cfg.block_size, cfg.vocab_size, cfg.seed)
    val_set = TokenBlocks(cfg.num_val, cfg.block_size, cfg.vocab_size, cfg.seed + 1)
    loaders = {}
    for split, dataset in (("train", train_set), ("val", val_set)):
        sampler = DistributedSampler(
            dataset, num_replicas=cfg.world_size, rank=cfg.rank, shuffle=(split == "train"), seed=cfg.seed
        )
        loaders[split] = DataLoader(dataset, batch_size=cfg.batch_size, sampler=sampler, pin_memory=False)
    return loaders
