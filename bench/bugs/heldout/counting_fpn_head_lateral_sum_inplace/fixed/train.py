import torch
import torch.nn.functional as F

from model import MultiCategoryCounter

NUM_CATEGORIES = 6


def aerial_batch(batch_size=2, size=64):
    images = torch.rand(batch_size, 3, size, size)
    density = torch.rand(batch_size, NUM_CATEGORIES, size // 2, size // 2) * 0.01
    return images, density


def train(iters=3):
    model = MultiCategoryCounter(NUM_CATEGORIES)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    for it in range(iters):
        images, gt_density = aerial_batch()
        pred = model(images)
        loss = F.mse_loss(pred, gt_density, reduction="sum")
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        mae = (pred.sum(dim=(2, 3)) - gt_density.sum(dim=(2, 3))).abs().mean().item()
        print(f"iter {it} loss {loss.item():.4f} mae {mae:.3f}")


if __name__ == "__main__":
    train()
