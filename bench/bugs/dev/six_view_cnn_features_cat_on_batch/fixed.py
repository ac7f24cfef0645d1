import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

CFG = {"views": 6, "image_size": 24, "channels": [3, 8, 16], "hidden": 32, "classes": 4}


class MultiViewDataset(Dataset):
    def __init__(self, n, cfg, seed=0):
        g = torch.Generator().manual_seed(seed)
        s = cfg["image_size"]
        self.views = torch.randn(n, cfg["views"], 3, s, s, generator=g)
        self.labels = torch.randint(0, cfg["classes"], (n,), generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return tuple(self.views[i]), self.labels[i]


def make_cnn(channels):
    layers = []
    for c_in, c_out in zip(channels[:-1], channels[1:]):
        layers += [nn.Conv2d(c_in, c_out, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2)]
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten()]
    return nn.Sequential(*layers)


class MultiInputs(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cnn = make_cnn(cfg["channels"])
        feat = cfg["channels"][-1]
        self.sec = nn.Sequential(nn.Linear(cfg["views"] * feat, cfg["hidden"]), nn.ReLU(), nn.Linear(cfg["hidden"], cfg["classes"]))

    def forward(self, input1, input2, input3, input4, input5, input6):
        c1 = self.cnn(input1)
        c2 = self.cnn(input2)
        c3 = self.cnn(input3)
        c4 = self.cnn(input4)
        c5 = self.cnn(input5)
        c6 = self.cnn(input6)
        all_views = torch.cat((c1, c2, c3, c4, c5, c6), 1)
        return self.sec(all_views)


def fit(model, loader, epochs=2):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        for views, labels in loader:
            logits = model(*views)
            loss = loss_fn(logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MultiInputs(CFG)
    fit(model, DataLoader(MultiViewDataset(32, CFG), batch_size=8, shuffle=True))
