import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

device = "cpu"


class DotImages(Dataset):
    """Grey images with a random number of bright dots; the target is how many there are."""

    def __init__(self, n, size=32, max_count=9, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.images = 0.05 * torch.randn(n, 1, size, size, generator=g)
        self.counts = torch.randint(0, max_count + 1, (n,), generator=g)
        for i, c in enumerate(self.counts.tolist()):
            ys = torch.randint(0, size, (c,), generator=g)
            xs = torch.randint(0, size, (c,), generator=g)
            self.images[i, 0, ys, xs] = 1.0

    def __len__(self):
        return len(self.counts)

    def __getitem__(self, i):
        return self.images[i].to(device), self.counts[i].float().to(device)


class CountNet(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(width, 2 * width, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.regressor = nn.Linear(2 * width, 1)

    def forward(self, x):
        return self.regressor(self.features(x).flatten(1))


def train_batch(x, y, model: CountNet, opt, loss_fn):
    model.train()
    prediction = model(x)
    batch_loss = loss_fn(prediction.squeeze(1), y)
    batch_loss.backward()
    opt.step()
    opt.zero_grad()
    return batch_loss.item()


def main():
    torch.manual_seed(0)
    model = CountNet().to(device)
    loss_fn = nn.MSELoss()
    opt = torch.optim.SGD(model.parameters(), lr=1e-2)
    trn_dl = DataLoader(DotImages(48), batch_size=8, shuffle=True)
    for epoch in range(2):
        losses = [train_batch(x, y, model, opt, loss_fn) for x, y in trn_dl]
        print(f"epoch {epoch} mse {sum(losses) / len(losses):.3f}")


if __name__ == "__main__":
    main()
