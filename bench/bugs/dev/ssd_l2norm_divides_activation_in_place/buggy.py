import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class L2Norm(nn.Module):
    def __init__(self, channels, scale=20.0, eps=1e-10):
        super().__init__()
        self.weight = nn.Parameter(torch.full((channels,), scale))
        self.eps = eps

    def forward(self, x):
        norm = x.pow(2).sum(dim=1, keepdim=True).sqrt() + self.eps
        x /= norm
        return self.weight.view(1, -1, 1, 1) * x


def vgg_stage(c_in, c_out, n_convs):
    layers = []
    for i in range(n_convs):
        layers += [nn.Conv2d(c_in if i == 0 else c_out, c_out, 3, padding=1), nn.ReLU(inplace=True)]
    return nn.Sequential(*layers)


class TinySSD(nn.Module):
    def __init__(self, num_classes=4, num_anchors=4, width=16):
        super().__init__()
        self.num_classes = num_classes
        self.features = nn.Sequential(vgg_stage(3, width, 2), nn.MaxPool2d(2), vgg_stage(width, 2 * width, 2))
        self.l2norm = L2Norm(2 * width)
        self.extra = nn.Sequential(nn.Conv2d(2 * width, 2 * width, 3, stride=2, padding=1), nn.ReLU(inplace=True))
        self.loc = nn.ModuleList([nn.Conv2d(2 * width, num_anchors * 4, 3, padding=1) for _ in range(2)])
        self.conf = nn.ModuleList([nn.Conv2d(2 * width, num_anchors * num_classes, 3, padding=1) for _ in range(2)])

    def forward(self, images):
        x = self.features(images)
        sources = [self.l2norm(x), self.extra(x)]
        loc, conf = [], []
        for src, l, c in zip(sources, self.loc, self.conf):
            loc.append(l(src).permute(0, 2, 3, 1).reshape(src.size(0), -1, 4))
            conf.append(c(src).permute(0, 2, 3, 1).reshape(src.size(0), -1, self.num_classes))
        return torch.cat(loc, 1), torch.cat(conf, 1)


def multibox_loss(loc_pred, conf_pred, loc_t, conf_t):
    positive = conf_t > 0
    loss_l = F.smooth_l1_loss(loc_pred[positive], loc_t[positive], reduction="sum")
    loss_c = F.cross_entropy(conf_pred.reshape(-1, conf_pred.size(-1)), conf_t.reshape(-1), reduction="sum")
    return (loss_l + loss_c) / positive.sum().clamp(min=1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args([])

    torch.manual_seed(0)
    images = torch.randn(16, 3, 32, 32)
    n_priors = 16 * 16 * 4 + 8 * 8 * 4
    loc_targets = torch.randn(16, n_priors, 4)
    conf_targets = torch.randint(0, 4, (16, n_priors))
    loader = DataLoader(TensorDataset(images, loc_targets, conf_targets), batch_size=8, shuffle=True)

    model = TinySSD()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    for epoch in range(args.epochs):
        for imgs, loc_t, conf_t in loader:
            loc_p, conf_p = model(imgs)
            loss = multibox_loss(loc_p, conf_p, loc_t, conf_t)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
