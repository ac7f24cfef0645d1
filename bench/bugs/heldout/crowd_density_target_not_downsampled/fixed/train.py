import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

from model import CSRNet


def gaussian_density(points, h, w, sigma=4.0):
    ys, xs = torch.meshgrid(torch.arange(h).float(), torch.arange(w).float(), indexing="ij")
    density = torch.zeros(h, w)
    for y, x in points:
        blob = torch.exp(-((ys - y) ** 2 + (xs - x) ** 2) / (2 * sigma ** 2))
        density += blob / blob.sum()
    return density


class CrowdDataset(Dataset):
    def __init__(self, n=4, h=96, w=128, train=True):
        g = torch.Generator().manual_seed(0)
        self.images = torch.rand(n, 3, h, w, generator=g)
        self.points = [torch.rand(5, 2, generator=g) * torch.tensor([h, w]) for _ in range(n)]
        self.h, self.w, self.train = h, w, train

    def __len__(self):
        return len(self.images)

    def __getitem__(self, index):
        img = self.images[index]
        target = gaussian_density(self.points[index], self.h, self.w)
        target = F.avg_pool2d(target[None, None], 8)[0] * 64
        return img, target


def train(train_loader, model, criterion, optimizer, epoch):
    model.train()
    for i, (img, target) in enumerate(train_loader):
        output = model(img)
        loss = criterion(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.6f} count {output.sum().item():.2f}")


def main():
    model = CSRNet()
    criterion = nn.MSELoss(reduction="sum")
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-7, momentum=0.95, weight_decay=5e-4)
    loader = DataLoader(CrowdDataset(), batch_size=1, shuffle=True)
    for epoch in range(2):
        train(loader, model, criterion, optimizer, epoch)


if __name__ == "__main__":
    main()
