import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

CONFIG = {"epochs": 1, "batch_size": 8, "lr": 0.01, "channels": (16, 32), "num_classes": 10}


class DigitsDataset(Dataset):
    def __init__(self, n=48, size=28):
        g = torch.Generator().manual_seed(0)
        self.images = torch.rand(n, 1, size, size, generator=g)
        self.labels = torch.randint(0, 10, (n,), generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        return self.images[idx], self.labels[idx]


def conv_block(c_in, c_out):
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, kernel_size=5, stride=1, padding=2),
        nn.ReLU(),
        nn.MaxPool2d(kernel_size=2),
    )


class CNN(nn.Module):
    def __init__(self, channels=(16, 32), num_classes=10):
        super().__init__()
        self.conv1 = conv_block(1, channels[0])
        self.conv2 = conv_block(channels[0], channels[1])
        self.out = nn.Linear(1050, num_classes)

    def forward(self, x):
        x = self.conv1(x)
        x = self.conv2(x)
        x = x.view(x.size(0), -1)
        return self.out(x), x


def train(cfg):
    model = CNN(cfg["channels"], cfg["num_classes"])
    loader = DataLoader(DigitsDataset(), batch_size=cfg["batch_size"], shuffle=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    loss_func = nn.CrossEntropyLoss()
    for epoch in range(cfg["epochs"]):
        for step, (b_x, b_y) in enumerate(loader):
            output, _ = model(b_x)
            loss = loss_func(output, b_y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if step % 2 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    train(CONFIG)
