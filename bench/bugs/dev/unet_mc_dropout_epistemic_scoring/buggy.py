import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallUNet(nn.Module):
    def __init__(self, in_ch=1, classes=3, width=8, dropout=0.2):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(in_ch, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU())
        self.bottleneck = nn.Sequential(nn.Conv2d(width, width, 3, padding=1), nn.ReLU(), nn.Dropout2d(dropout))
        self.up = nn.Conv2d(2 * width, classes, 1)

    def forward(self, x):
        skip = self.down(x)
        h = F.max_pool2d(skip, 2)
        h = F.interpolate(self.bottleneck(h), scale_factor=2)
        return self.up(torch.cat([skip, h], dim=1))


def enable_dropout(model):
    for module in model.modules():
        if isinstance(module, nn.modules.dropout._DropoutNd):
            module.train()


class EpistemicScoring:
    """Ranks unlabeled images by the entropy of the mean of T stochastic forward passes (MC dropout)."""

    def __init__(self, model, num_samples=5):
        self.model = model
        self.num_samples = num_samples

    def entropy_3d_volume(self, probs):
        return -(probs * torch.log(probs + 1e-8)).sum(dim=1).mean(dim=(1, 2))

    def __call__(self, images):
        self.model.eval()
        enable_dropout(self.model)
        with torch.no_grad():
            samples = torch.stack([F.softmax(self.model(images), dim=1) for _ in range(self.num_samples)])
        return self.entropy_3d_volume(samples.mean(0))


def fit(model, steps=3):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    model.train()
    for _ in range(steps):
        img = torch.randn(2, 1, 16, 16)
        lbl = torch.randint(0, 3, (2, 16, 16))
        loss = F.cross_entropy(model(img), lbl)
        opt.zero_grad()
        loss.backward()
        opt.step()


model = SmallUNet()
fit(model)
scores = EpistemicScoring(model)(torch.randn(4, 1, 16, 16))
print("most uncertain first:", scores.argsort(descending=True).tolist())
