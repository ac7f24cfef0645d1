import torch


@torch.no_grad()
def hit_rate(model, loader, k: int = 10) -> float:
    model.eval()
    hits, total = 0, 0
    for prefixes, targets in loader:
        topk = model(prefixes).topk(k, dim=1).indices
        hits += (topk == targets[:, None]).any(dim=1).sum().item()
        total += len(targets)
    model.train()
    return hits / total
