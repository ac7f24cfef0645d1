import torch
import torch.nn as nn


def stage(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride=2, padding=1), nn.BatchNorm2d(c_out), nn.ReLU())


class Backbone(nn.Module):
    def __init__(self, widths=(8, 16, 32, 64), out_indices=(1, 2, 3)):
        super().__init__()
        chans = (3,) + tuple(widths)
        self.stages = nn.ModuleList(stage(a, b) for a, b in zip(chans[:-1], chans[1:]))
        self.out_indices = out_indices
        self.taps = [self.stages[i] for i in out_indices]
        self.out_channels = [widths[i] for i in out_indices]

    def forward(self, x):
        feats = []
        for block in self.stages:
            x = block(x)
            if any(block is t for t in self.taps):
                feats.append(x)
        return feats


class MultiScaleHead(nn.Module):
    def __init__(self, backbone, n_classes=6):
        super().__init__()
        self.backbone = backbone
        self.heads = nn.ModuleList(nn.Conv2d(c, n_classes, 1) for c in backbone.out_channels)

    def forward(self, x):
        feats = self.backbone(x)
        return sum(h(f).mean((2, 3)) for h, f in zip(self.heads, feats))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MultiScaleHead(Backbone())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(2):
        x, y = torch.rand(4, 3, 32, 32), torch.randint(0, 6, (4,))
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())
