import torch


def nopeak_mask(size, device):
    return torch.tril(torch.ones(1, size, size, dtype=torch.bool, device=device))


def create_masks(src, trg, pad_idx):
    src_mask = (src != pad_idx).unsqueeze(-2)
    trg_mask = (trg != pad_idx).unsqueeze(-2)
    trg_mask = trg_mask & nopeak_mask(trg.size(1), trg.device)
    return src_mask, trg_mask


def move_to(batch, device):
    return tuple(t.to(device, non_blocking=True) for t in batch)
