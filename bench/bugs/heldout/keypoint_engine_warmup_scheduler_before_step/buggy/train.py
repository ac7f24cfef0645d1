import torch
from torch.utils.data import DataLoader, TensorDataset

from engine import evaluate, train_one_epoch
from model import SimpleBaseline


def gaussian_heatmaps(n, k, size, sigma=1.5):
    ys, xs = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    centers = torch.randint(2, size - 2, (n, k, 2))
    d2 = (xs - centers[..., 0, None, None]) ** 2 + (ys - centers[..., 1, None, None]) ** 2
    return torch.exp(-d2 / (2 * sigma ** 2)).float()


def main():
    num_kp, size, n = 5, 32, 48
    images = torch.randn(n, 3, size, size)
    heatmaps = gaussian_heatmaps(n, num_kp, size)
    visible = (torch.rand(n, num_kp) > 0.2).float()
    loader = DataLoader(TensorDataset(images, heatmaps, visible), batch_size=8, shuffle=True)

    model = SimpleBaseline(num_kp)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-4)
    warmup_iters = 10
    lr_scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda it: min(1.0, (it + 1) / warmup_iters))
    for epoch in range(2):
        train_one_epoch(model, optimizer, loader, lr_scheduler, epoch)
        print(f"epoch {epoch} val {evaluate(model, loader):.5f}")


if __name__ == "__main__":
    main()
