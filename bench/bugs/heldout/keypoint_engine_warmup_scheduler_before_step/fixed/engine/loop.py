import math
import time

import torch
import torch.nn.functional as F


def heatmap_loss(pred, target, weight):
    return (F.mse_loss(pred, target, reduction="none").mean(dim=(2, 3)) * weight).mean()


def train_one_epoch(model, optimizer, loader, lr_scheduler, epoch, print_freq=4):
    model.train()
    start = time.time()
    for it, (images, heatmaps, visible) in enumerate(loader):
        pred = model(images)
        loss = heatmap_loss(pred, heatmaps, visible)
        if not math.isfinite(loss.item()):
            raise RuntimeError(f"loss is {loss.item()}, stopping training")
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        lr_scheduler.step()
        if it % print_freq == 0:
            lr = optimizer.param_groups[0]["lr"]
            print(f"epoch {epoch} it {it} loss {loss.item():.5f} lr {lr:.2e} ({time.time() - start:.1f}s)")


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    total, n = 0.0, 0
    for images, heatmaps, visible in loader:
        total += heatmap_loss(model(images), heatmaps, visible).item() * len(images)
        n += len(images)
    return total / n
