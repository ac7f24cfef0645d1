import torch


def binary_accuracy(logits: torch.Tensor, labels: torch.Tensor) -> float:
    preds = (logits > 0).float()
    return (preds == labels).float().mean().item()


def running_mean(history, window=10):
    tail = history[-window:]
    return sum(tail) / max(len(tail), 1)
